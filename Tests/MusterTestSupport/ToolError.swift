/// A failure of a tool the tests start (cupsd, ippeveprinter, lpadmin, a socket).
public struct ToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
