import Foundation
import MusterCore

/// Runs one target for its budget: the seeds first, then mutations of the working corpus and, one time
/// in twelve, purely random bytes.
///
/// There is no coverage instrumentation (the product is built as usual, not with `-sanitize=fuzzer`), so
/// the feedback is the behaviour fingerprint each target returns: an input that makes the parser end in
/// a way not seen before (a new error, a new record count) joins the working corpus and gets mutated
/// further. The working corpus is capped in entries and bytes, so memory stays bounded however long it runs.
struct FuzzDriver {
    static let maxCorpusEntries = 4_096
    static let maxCorpusBytes = 32 << 20
    static let maxSavedFailures = 20

    let options: FuzzOptions
    var counter = InputCounter()

    init(options: FuzzOptions) { self.options = options }

    mutating func run(_ target: any FuzzTarget, seeds: [[UInt8]], seed: UInt64) -> FuzzReport {
        var rng = SplitMix64(seed: seed ^ Fingerprint(of: target.name.utf8).value)
        let mutator = Mutator(maxLength: options.maxLength, dictionary: target.dictionary)
        var corpus = seeds.isEmpty ? [[]] : seeds
        var corpusBytes = corpus.reduce(0) { $0 + $1.count }
        var behaviours = Set<UInt64>()
        var failing = Set<UInt64>()
        var report = FuzzReport(target: target.name)
        counter.reset()
        target.prepare(corpus: seeds)
        CrashGuard.begin(
            target: target.name,
            crashDirectory: options.crashes,
            capacity: max(options.maxLength, seeds.map(\.count).max() ?? 0)
        )
        defer { CrashGuard.end() }

        let start = ContinuousClock.now
        let budget = Duration.milliseconds(Int64(options.seconds * 1000))
        var next = 0
        while true {
            let input: [UInt8]
            if next < seeds.count {
                input = seeds[next]
                next += 1
            } else {
                if let runs = options.runs, report.executions >= runs { break }
                if ContinuousClock.now - start >= budget { break }
                input =
                    rng.oneIn(12)
                    ? randomInput(&rng)
                    : mutator.mutate(
                        rng.pick(corpus),
                        other: rng.pick(corpus),
                        rng: &rng
                    )
            }
            let fingerprint = Fingerprint(of: input).value
            counter.insert(fingerprint)
            report.executions += 1
            CrashGuard.record(input, hangSeconds: options.hangSeconds)
            do throws(PropertyFailure) {
                let behaviour = try target.run(input)
                if behaviours.insert(behaviour).inserted, corpus.count < Self.maxCorpusEntries,
                    corpusBytes + input.count <= Self.maxCorpusBytes
                {
                    corpus.append(input)
                    corpusBytes += input.count
                }
            } catch {
                guard failing.insert(fingerprint).inserted else { continue }
                if failing.count <= Self.maxSavedFailures {
                    let path = options.crashes + "/\(target.name)-failure-\(Fingerprint.hex(input)).bin"
                    CrashGuard.save(input, to: path)
                    FileHandle.standardError.write(
                        Data("muster-fuzz: \(target.name): \(error); input saved to \(path)\n".utf8)
                    )
                }
            }
        }
        report.seconds =
            Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        report.uniqueInputs = counter.estimate
        report.failures = failing.count
        report.corpusSize = corpus.count
        report.peakRSSMiB = ProcessUsage.peakRSSMiB
        return report
    }

    /// Purely random bytes: half the time any byte, half the time printable ASCII and line breaks,
    /// which the text parsers (CSV, control JSON) get past their UTF-8 check.
    private func randomInput(_ rng: inout SplitMix64) -> [UInt8] {
        let length = rng.below(min(options.maxLength, rng.oneIn(8) ? 16_384 : 512) + 1)
        if rng.oneIn(2) { return (0..<length).map { _ in rng.byte() } }
        return (0..<length).map { _ in rng.oneIn(16) ? rng.pick([0x0A, 0x0D, 0x09]) : UInt8(0x20 + rng.below(95)) }
    }
}
