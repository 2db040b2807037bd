/// Why a program could not be started: which one, and the error underneath.
public struct ProcessError: Error, Sendable, CustomStringConvertible {
    public let executable: String
    public let message: String
    public let cause: (any Error)?

    public init(executable: String, _ message: String, cause: (any Error)? = nil) {
        self.executable = executable
        self.message = message
        self.cause = cause
    }

    public var description: String { "cannot run \(executable): \(message)" }
}
