import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the test-support servers (cupsd, the virtual printer and its bus) share besides the process
/// runner (``RunningProcess/stop(grace:)`` stops a child without ever waiting unbounded): polling for
/// a condition with a deadline.
enum ChildProcess {
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
