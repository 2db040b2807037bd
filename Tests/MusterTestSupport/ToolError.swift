/// A failure of a tool the tests start (cupsd, ippeveprinter, lpadmin, a socket): a ``TestFailure``.
public typealias ToolError = TestFailure
