import Foundation
import Logging
import ServiceLifecycle

/// Makes SIGTERM final: once graceful shutdown starts, the process exits after ``limit`` whatever
/// its services are still doing.
///
/// The other services stop in order and normally within milliseconds; this is the backstop for the
/// case that cannot be ruled out by inspection (a session stuck in a write to a peer that does not
/// read, a handshake in flight, a store call that takes long). Exiting then is safe: every
/// acknowledged write is already committed (SQLite WAL, `synchronous=FULL`), and anything else is
/// what a power cut would lose too. The timer runs on a thread of its own, not on Swift's
/// cooperative pool, so it fires even when every pool thread is blocked.
///
/// Listed last in the `ServiceGroup`, so it is the first told of the shutdown (the group tells
/// services in reverse order and waits for each): it only starts the timer and returns.
struct ShutdownDeadline: Service {
    /// Within systemd's and the 5 s, with room for the exit itself.
    static let limit: Duration = .seconds(4)
    let logger: Logger

    func run() async throws {
        // Returns when graceful shutdown starts; throws when the group is cancelled instead.
        try await gracefulShutdown()
        let logger = self.logger
        let seconds = Double(Self.limit.components.seconds)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            logger.critical("shutdown did not finish within \(Self.limit); exiting now")
            fflush(nil)
            _exit(0)
        }
    }
}
