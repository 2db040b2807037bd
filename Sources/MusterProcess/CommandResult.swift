public import Foundation

/// How a program ended, and what it wrote (empty unless its output was captured).
public struct CommandResult: Sendable {
    /// The exit status, or the signal number when ``signaled``.
    public let status: Int32
    /// Whether a signal ended it.
    public let signaled: Bool
    /// Standard output (with standard error too for ``Command/Output/merged``).
    public let outputBytes: Data
    public let errorOutputBytes: Data

    public var output: String { String(decoding: outputBytes, as: UTF8.self) }
    public var errorOutput: String { String(decoding: errorOutputBytes, as: UTF8.self) }

    public init(status: Int32, signaled: Bool, outputBytes: Data, errorOutputBytes: Data) {
        self.status = status
        self.signaled = signaled
        self.outputBytes = outputBytes
        self.errorOutputBytes = errorOutputBytes
    }
}
