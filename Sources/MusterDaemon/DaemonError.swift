import MusterControl
public import MusterCore

/// Why the daemon could not start or keep running. The message says what to do; the cause is the
/// error underneath, when there was one.
public struct DaemonError: MessageError, Sendable {
    public enum Code: Sendable, Equatable {
        case config, venue, stateDirectory, kioskKey, replica, controlSocket, notEnrolled, revoked
    }
    public let code: Code
    public let message: String
    public let cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The daemon's reading of a kiosk key or certificate failure.
    init(_ error: KioskIdentityError) {
        let code: Code =
            switch error.code {
            case .kioskKey: .kioskKey
            case .certificate: .notEnrolled
            case .stateDirectory: .stateDirectory
            }
        self.init(code, error.message, cause: error)
    }
}
