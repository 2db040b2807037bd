/// What one target's run did, printed as the one line CI reads.
struct FuzzReport {
    let target: String
    var executions = 0
    var uniqueInputs = 0
    /// Distinct inputs that broke a property (a crash ends the process before any report).
    var failures = 0
    var corpusSize = 0
    var seconds = 0.0
    var peakRSSMiB = 0.0

    var line: String {
        "\(target): \(executions) executions, \(uniqueInputs) unique inputs, \(failures) crashes, "
            + "peak RSS \(Int(peakRSSMiB.rounded())) MiB"
    }

    var detail: String {
        let rate = seconds > 0 ? Int((Double(executions) / seconds).rounded()) : executions
        return "  \(target): \(String(format: "%.1f", seconds)) s, \(rate) exec/s, working corpus \(corpusSize) inputs"
    }
}
