/// Why a simulated run could not be carried out (not a checker failure: that is a ``CheckReport``).
public struct SimError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let cause: (any Error & Sendable)?

    public init(_ message: String, cause: (any Error & Sendable)? = nil) {
        self.message = message
        self.cause = cause
    }

    public var description: String {
        guard let cause else { return message }
        return "\(message): \(cause)"
    }
}
