public import MusterCore

/// Why a control request got no usable answer, and whether the daemon may have acted on it.
///
/// ``requestSent`` is the line between "failed" and "unknown": before any byte of the request left,
/// nothing happened; after, the daemon may have committed it and only the answer was lost.
public struct ControlClientError: MessageError, Sendable {
    public enum Code: Sendable, Equatable {
        /// No daemon at the socket, or the connection broke.
        case unreachable
        /// No answer within the timeout.
        case timeout
        /// The request could not be encoded or the answer not decoded.
        case protocolError
    }

    public let code: Code
    public let message: String
    /// Whether any byte of the request reached the socket.
    public let requestSent: Bool
    /// The socket call that failed, when one did.
    public let cause: SocketError?

    public init(_ code: Code, _ message: String, requestSent: Bool, cause: SocketError? = nil) {
        self.code = code
        self.message = message
        self.requestSent = requestSent
        self.cause = cause
    }
}
