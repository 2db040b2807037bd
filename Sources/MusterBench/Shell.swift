import MusterProcess
import Synchronization

/// Runs a helper program (scripts/lab, ping) and collects its output, stdout and stderr together.
enum Shell {
    /// The helper running now, stopped by the signal handler before it takes the lab down.
    static let current = Mutex<RunningProcess?>(nil)

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
        let command = Command(arguments[0], Array(arguments.dropFirst()), environment: environment, output: .merged)
        let process: RunningProcess
        do {
            process = try command.start()
        } catch {
            throw BenchError(.setup, "\(error)")
        }
        current.withLock { $0 = process }
        defer { current.withLock { $0 = nil } }
        return process.finish()
    }
}
