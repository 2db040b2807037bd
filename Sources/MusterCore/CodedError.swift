/// An error a program branches on by its `code` and a person reads as its `message`: the shape of
/// every module's error in Muster (GRDB's `DatabaseError` is the model).
///
/// Its description is the message, so logging or interpolating the error prints the sentence and
/// nothing else: no code names, and none of the secret material a message is written to leave out.
public protocol CodedError: Error, CustomStringConvertible {
    associatedtype Code: Equatable
    /// What kind of failure this is, for callers that branch on it.
    var code: Code { get }
    /// A sentence a person can act on.
    var message: String { get }
}

extension CodedError {
    public var description: String { message }
}
