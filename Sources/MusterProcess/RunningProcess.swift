public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A started ``Command``: signal it, stop it, wait for it, collect its output.
///
/// `@unchecked Sendable`: the stored properties are set once in `init`; `Process` is itself safe to
/// query and signal from any thread, and the temporary files are only read after it exited.
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let captureDirectory: String?
    private let mergesErrors: Bool
    private let inputPipe: Pipe?
    private let outputPipe: Pipe?

    init(_ command: Command) throws(ProcessError) {
        guard let path = Command.resolve(command.executable) else {
            throw ProcessError(executable: command.executable, "not found")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = command.arguments
        if let environment = command.environment { process.environment = environment }
        var directory: String?
        func scratch() throws -> String {
            if let directory { return directory }
            let made = NSTemporaryDirectory() + "muster-process-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
            directory = made
            return made
        }
        var inputPipe: Pipe?
        var outputPipe: Pipe?
        var merges = false
        do {
            switch command.input {
            case .empty: process.standardInput = FileHandle.nullDevice
            case .text(let text):
                let file = try scratch() + "/input"
                FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
                process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            case .pipe:
                inputPipe = Pipe()
                process.standardInput = inputPipe
            }
            switch command.output {
            case .capture:
                process.standardOutput = try Self.writable(try scratch() + "/output", append: false)
                process.standardError = try Self.writable(try scratch() + "/error", append: false)
            case .merged:
                merges = true
                let both = try Self.writable(try scratch() + "/output", append: false)
                process.standardOutput = both
                process.standardError = both
            case .discard:
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
            case .file(let path):
                let log = try Self.writable(path, append: true)
                process.standardOutput = log
                process.standardError = log
            case .pipe:
                outputPipe = Pipe()
                process.standardOutput = outputPipe
                process.standardError = FileHandle.nullDevice
            }
            try process.run()
        } catch {
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
            throw ProcessError(executable: command.executable, "\(error)", cause: error)
        }
        self.process = process
        self.captureDirectory = directory
        self.mergesErrors = merges
        self.inputPipe = inputPipe
        self.outputPipe = outputPipe
    }

    deinit {
        if let captureDirectory { try? FileManager.default.removeItem(atPath: captureDirectory) }
    }

    public var processIdentifier: pid_t { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// The exit status (or signal number) once it ended.
    public var terminationStatus: Int32 { process.terminationStatus }

    /// Where to write its standard input (``Command/Input/pipe`` only).
    public var input: FileHandle? { inputPipe?.fileHandleForWriting }
    /// Where to read its standard output (``Command/Output/pipe`` only).
    public var output: FileHandle? { outputPipe?.fileHandleForReading }

    /// Sends `signal` (SIGSTOP, SIGCONT, SIGKILL…).
    public func signal(_ signal: Int32) {
        guard processIdentifier > 0 else { return }
        kill(processIdentifier, signal)
    }

    /// SIGTERM, without waiting.
    public func terminate() { process.terminate() }

    /// SIGTERM, then SIGKILL after `grace` (a child may ignore SIGTERM, for example through an
    /// inherited signal disposition); returns once it exited, never waiting unbounded on it.
    public func stop(grace: Duration = .seconds(3)) {
        guard processIdentifier > 0, process.isRunning else { return }
        process.terminate()
        let clock = ContinuousClock()
        let deadline = clock.now + grace
        while process.isRunning && clock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public func waitUntilExit() { process.waitUntilExit() }

    /// Waits for the end and returns the status and whatever output was captured.
    public func finish() -> CommandResult {
        try? inputPipe?.fileHandleForWriting.close()
        process.waitUntilExit()
        func read(_ name: String) -> Data {
            guard let captureDirectory else { return Data() }
            return FileManager.default.contents(atPath: captureDirectory + "/" + name) ?? Data()
        }
        return CommandResult(
            status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
            outputBytes: read("output"),
            errorOutputBytes: mergesErrors ? Data() : read("error")
        )
    }

    private static func writable(_ path: String, append: Bool) throws -> FileHandle {
        if append ? !FileManager.default.fileExists(atPath: path) : true {
            FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        if append { handle.seekToEndOfFile() }
        return handle
    }
}
