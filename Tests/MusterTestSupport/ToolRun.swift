@_exported public import MusterProcess

/// The result of running a command-line tool to the end: what tests use to check a file with an
/// independent program (`zbarimg` reads a QR back, `pdftotext` reads a badge's text). The test kit's
/// name for the one process runner's ``CommandResult``; ``Command`` itself is exported with it.
public typealias ToolRun = CommandResult

extension CommandResult {
    /// Runs `executable` (an absolute path or a name looked up on PATH) with `arguments` and waits.
    public static func run(_ executable: String, _ arguments: [String]) throws -> ToolRun {
        try Command(executable, arguments).run()
    }

    /// Whether `name` is an executable on PATH (or the sbin directories CUPS tools live in).
    public static func available(_ name: String) -> Bool { Command.available(name) }
}
