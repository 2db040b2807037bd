/// An error that is described by its `message`: one sentence a person can act on. Its other fields (a
/// code to branch on, a cause for the logs) are for code, so the description leaves them out.
public protocol MessageError: Error, CustomStringConvertible {
    var message: String { get }
}

extension MessageError {
    public var description: String { message }
}
