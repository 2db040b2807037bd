/// What a walk-in typed at the screen (or staff gave `muster register`).
///
/// Fields are as typed: the daemon sanitizes them and refuses a blank name or an implausible email
/// with words for the person, so a field left out of the line is read as empty and refused the same way.
public struct WalkInRegistration: Sendable, Equatable {
    public var firstName: String
    public var lastName: String
    public var email: String
    /// Empty when the walk-in gave none.
    public var company: String

    public init(firstName: String, lastName: String, email: String, company: String = "") {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.company = company
    }
}
