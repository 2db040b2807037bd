/// An error with a code to branch on, a sentence a person can act on, and the error underneath.
///
/// The errors that carry nothing more than these three (the `muster` front end's, the daemon's, the
/// kiosk identity's) are this one type with their own `Code`, so each module names its failures
/// without writing the same struct again; an error that needs more fields (a delta reference, an
/// Avahi call) keeps its own struct.
public struct CodedError<Code: Sendable & Equatable>: MessageError, Sendable {
    public let code: Code
    public let message: String
    /// The error underneath (a socket failure, a replica error), kept for logs and tests.
    public let cause: (any Error & Sendable)?

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `error` itself as the message (a ``MessageError``'s own sentence), and as the cause: the
    /// error of a layer below, passed up under this module's code for it.
    public init(_ code: Code, describing error: any Error) {
        self.init(code, "\(error)", cause: error)
    }
}
