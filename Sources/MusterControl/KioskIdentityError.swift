public import MusterCore

/// Why the kiosk's key or enrollment certificate could not be read or written; the message names
/// the file and what to do, the cause is the error underneath.
public struct KioskIdentityError: MessageError, Sendable {
    public enum Code: Sendable, Equatable {
        /// The kiosk key could not be read or created.
        case kioskKey
        /// The enrollment certificate is there but not valid.
        case certificate
        /// The state directory could not be written.
        case stateDirectory
    }

    public let code: Code
    public let message: String
    public let cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}
