/// The state directory or replica files other users may access; the message lists each and the
/// commands that fix them.
public struct StatePermissionsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let problems: [StatePermissions.Problem]

    public init(_ problems: [StatePermissions.Problem]) { self.problems = problems }

    public var description: String {
        problems.map(\.description).joined(separator: "; ") + ". Run: "
            + problems.map(\.fix).joined(separator: "; ")
            + " (and consider the attendee list seen if other users had access)"
    }
}
