/// Why a control line is not a request, as the daemon answers it.
///
/// A line that is no request at all (not JSON, no `op`, an operation this daemon does not know, a field
/// of the wrong type) is ``Code/malformed`` or ``Code/unknownOperation``: the daemon answers
/// `malformed control request` once and closes the connection. A line that names a known operation
/// without what it needs (no query, a blank attendee key, an author that is not hex, an unknown badge
/// reason) is ``Code/incomplete``: the daemon answers it with ``message`` under `bad_request`, as it
/// answers any other bad request, and the connection stays open.
public struct ControlRequestError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case malformed
        case unknownOperation
        case incomplete
    }

    public let code: Code
    /// The operation the line names, when this daemon knows it (``Code/incomplete`` only).
    public let operation: ControlRequest.Operation?
    /// The field that is missing or wrong (``Code/incomplete`` only).
    public let field: ControlRequestKey?
    /// What the daemon answers (``Code/incomplete``) or logs.
    public let message: String
    /// The decoder's own error, for a malformed line.
    public let cause: (any Error)?

    init(
        _ code: Code,
        _ message: String,
        operation: ControlRequest.Operation? = nil,
        field: ControlRequestKey? = nil,
        cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.operation = operation
        self.field = field
        self.cause = cause
    }

    /// A known operation without a field it needs, or with one whose value it cannot take.
    static func incomplete(
        _ operation: ControlRequest.Operation,
        _ field: ControlRequestKey,
        _ message: String
    ) -> ControlRequestError {
        ControlRequestError(.incomplete, message, operation: operation, field: field)
    }

    public var description: String {
        cause.map { "\(message) (\($0))" } ?? message
    }
}
