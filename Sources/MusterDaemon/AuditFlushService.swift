import Logging
import MusterRules
import MusterTime
import ServiceLifecycle

/// Records the not-found scans a kiosk holds (see ``NotFoundTally``) once their minute is over,
/// even when no further scan comes to do it, and every held one at shutdown, so the audit misses
/// nothing a kiosk answered unless it crashes.
struct AuditFlushService: Service {
    let handler: ControlHandler
    let time: any TimeSource
    let logger: Logger
    /// How often held counts are checked: well under the one-minute window.
    static let interval: Duration = .seconds(10)

    func run() async throws {
        while !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await time.sleep(for: Self.interval) }
            } catch {
                break
            }
            if Task.isShuttingDownGracefully { break }
            flush(force: false)
        }
        flush(force: true)
    }

    private func flush(force: Bool) {
        do {
            try handler.flushNotFound(nowMillis: handler.clock.nowMillis, force: force)
        } catch {
            logger.error("could not record held not-found scans", metadata: ["error": "\(error)"])
        }
    }
}
