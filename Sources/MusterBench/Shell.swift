import Foundation
import Synchronization

/// Runs a helper program (scripts/lab, ping) and collects its output, stdout and stderr together.
enum Shell {
    struct Result {
        let status: Int32
        let output: String
    }

    /// The helper running now, stopped by the signal handler before it takes the lab down.
    static let current = Mutex<Process?>(nil)

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        // Output goes to a file, not a pipe: daemons started by scripts/lab must not hold our pipe open.
        let path = NSTemporaryDirectory() + "muster-bench-\(UUID().uuidString).out"
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchError(.setup, "cannot run \(arguments[0]): \(error)")
        }
        current.withLock { $0 = process }
        process.waitUntilExit()
        current.withLock { $0 = nil }
        try? output.close()
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: text)
    }
}
