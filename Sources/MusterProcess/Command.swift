public import Foundation

/// A program to run, with where its input comes from and where its output goes: the one way the
/// tools (`muster-bench`, `muster-faults`) and the tests start a child process.
///
/// Captured output is written to temporary files, never to pipes, so a child that forks a daemon
/// (`scripts/lab start`) cannot keep the caller waiting on a pipe the daemon still holds, and a
/// chatty child never blocks on a full pipe.
///
/// ```swift
/// let result = try Command("lpstat", ["-r"]).run()
/// let daemon = try Command(musterd, ["--config", path], output: .file(log)).start()
/// daemon.stop()
/// ```
public struct Command: Sendable {
    public enum Input: Sendable {
        /// `/dev/null`.
        case empty
        /// These bytes, then end of file.
        case text(String)
        /// A pipe the caller writes through ``RunningProcess/input``.
        case pipe
    }

    public enum Output: Sendable {
        /// Collected into ``CommandResult/output`` and ``CommandResult/errorOutput``.
        case capture
        /// Both standard output and standard error collected into ``CommandResult/output``, in order.
        case merged
        /// `/dev/null`.
        case discard
        /// Both streams appended to this file.
        case file(String)
        /// Standard output on a pipe the caller reads through ``RunningProcess/output`` (standard
        /// error discarded).
        case pipe
    }

    /// An absolute path, or a name looked up on `PATH` (and the sbin directories).
    public var executable: String
    public var arguments: [String]
    /// nil: this process's environment.
    public var environment: [String: String]?
    public var input: Input
    public var output: Output

    public init(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String]? = nil,
        input: Input = .empty,
        output: Output = .capture
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.input = input
        self.output = output
    }

    /// Runs the program to its end and returns its status and output.
    public func run() throws(ProcessError) -> CommandResult {
        try start().finish()
    }

    /// Starts the program and returns at once.
    public func start() throws(ProcessError) -> RunningProcess {
        try RunningProcess(self)
    }

    /// The path `executable` names: itself when it holds a `/`, else the first match on `PATH`.
    public static func resolve(_ executable: String) -> String? {
        if executable.contains("/") {
            return FileManager.default.isExecutableFile(atPath: executable) ? executable : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return directories.lazy.map { "\($0)/\(executable)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `executable` can be run here.
    public static func available(_ executable: String) -> Bool { resolve(executable) != nil }
}
