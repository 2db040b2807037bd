public import MusterCore

/// A verdict on a delta: described by its message and, when it is about one delta rather than a whole
/// run, the delta it names ("… (delta ab12cd34:7)").
public protocol DeltaNamingError: Error, CustomStringConvertible {
    var message: String { get }
    var ref: DeltaRef? { get }
}

extension DeltaNamingError {
    public var description: String {
        if let ref { return "\(message) (delta \(ref))" }
        return message
    }
}
