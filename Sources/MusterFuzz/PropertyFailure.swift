/// A property of a parser that one input broke: the parser did not crash, but it answered wrongly
/// (a forged handshake completed, a round trip changed a value, a row broke a documented limit).
///
/// The driver saves the input next to crash files and carries on, so one run reports every kind of
/// failure it can find; the exit status says that something failed.
struct PropertyFailure: Error, CustomStringConvertible {
    /// Short name of the property, stable across runs (e.g. "round-trip").
    let property: String
    /// What was observed, for a person reading the log.
    let detail: String

    init(_ property: String, _ detail: String) {
        self.property = property
        self.detail = detail
    }

    var description: String { "\(property): \(detail)" }

    /// Throws unless `condition` holds; `detail` is built only on failure.
    static func check(
        _ condition: Bool,
        _ property: String,
        _ detail: @autoclosure () -> String
    ) throws(PropertyFailure) {
        guard condition else { throw PropertyFailure(property, detail()) }
    }
}
