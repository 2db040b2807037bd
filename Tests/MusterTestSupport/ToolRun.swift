import Foundation

/// The result of running a command-line tool to the end: what tests use to check a file with an
/// independent program (`zbarimg` reads a QR back, `pdftotext` reads a badge's text).
public struct ToolRun: Sendable {
    public let status: Int32
    public let output: String
    public let errorOutput: String

    /// Runs `executable` (an absolute path or a name looked up on PATH) with `arguments` and waits.
    ///
    /// Output is read to the end before waiting, so a chatty tool never blocks on a full pipe.
    public static func run(_ executable: String, _ arguments: [String]) throws -> ToolRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(
            status: process.terminationStatus,
            output: String(decoding: outData, as: UTF8.self),
            errorOutput: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Whether `name` is an executable on PATH (or the sbin directories CUPS tools live in).
    public static func available(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return directories.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
