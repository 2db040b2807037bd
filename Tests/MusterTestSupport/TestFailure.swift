/// A test's own failure: a fixture that could not be set up, a tool or socket that did not answer.
///
/// The one error type of the test kit, so that no test target invents its own.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
