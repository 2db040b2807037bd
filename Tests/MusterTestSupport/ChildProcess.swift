import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the test-support servers (cupsd, the virtual printer and its bus) share: stopping a child
/// without ever waiting unbounded, and polling for a condition with a deadline.
enum ChildProcess {
    /// SIGTERM, then SIGKILL after 3 s: a daemon started from the test runner was seen to ignore
    /// SIGTERM (an inherited signal disposition).
    static func stop(_ process: Process) {
        guard process.processIdentifier > 0, process.isRunning else { return }
        process.terminate()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(3)
        while process.isRunning && clock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Polls `value` every 20 ms until it returns something or `timeout` passes (then nil).
    static func poll<T>(within timeout: Duration, _ value: () throws -> T?) rethrows -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let found = try value() { return found }
            usleep(20_000)
        }
        return nil
    }
}
