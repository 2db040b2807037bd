import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the test-support servers (cupsd, the virtual printer and its bus) share besides the process
/// runner (``RunningProcess/stop(grace:)`` stops a child without ever waiting unbounded): polling for
/// a condition with a deadline.
enum ChildProcess {
    /// Polls `value` every 20 ms until it returns something or `timeout` passes (then nil). It
    /// suspends rather than sleeps: a test waiting for a printer must not hold one of the two
    /// threads the whole parallel suite runs on (a blocked pool starved a 10 s deadline elsewhere).
    static func poll<T>(within timeout: Duration, _ value: () throws -> T?) async throws -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let found = try value() { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
