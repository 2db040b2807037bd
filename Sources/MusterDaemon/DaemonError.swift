/// Why the daemon could not start or keep running. The message says what to do.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable { case config, venue, stateDirectory, kioskKey, replica, controlSocket, notEnrolled, revoked }
    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
