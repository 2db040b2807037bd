public import MusterCore

/// Why ``DeltaSigner`` could not sign a delta. Nothing was signed and the head did not move.
///
/// The body comes from input (an attendee file, a walk-in's form), so a delta that cannot be encoded within the
/// limits is an error for the caller to report, never a crash.
public struct DeltaSignerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The seq the delta would have had.
    public let seq: UInt64
    public let kind: DeltaKind
    /// What the encoding check said.
    public let cause: DecodeError

    public var description: String {
        "cannot sign the \(kind) delta at seq \(seq): \(cause)"
    }
}
