import Foundation
import MusterControl
public import MusterTime
public import ServiceLifecycle

/// Talks to systemd through `$NOTIFY_SOCKET` (`sd_notify(3)`): `READY=1` once the daemon serves,
/// `STATUS=` lines, `WATCHDOG=1` at half the watchdog interval, `STOPPING=1` on shutdown.
/// Does nothing when not started by systemd.
public final class SystemdNotifier: Service, Sendable {
    let socketPath: String?
    let watchdogInterval: Duration?
    let statusInterval: Duration
    /// Where the watchdog's and the status line's intervals are measured and slept.
    let time: any TimeSource
    /// The current `STATUS=` text (sent when it changes), or nil for none.
    let status: (@Sendable () -> String)?

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        statusInterval: Duration = .seconds(10),
        time: any TimeSource = SystemTime(),
        status: (@Sendable () -> String)? = nil
    ) {
        self.time = time
        self.statusInterval = statusInterval
        self.status = status
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends one notification datagram. Failures are ignored: systemd may be gone during shutdown.
    public func notify(_ state: String) {
        guard let socketPath else { return }
        // An abstract socket is written with a leading '@'; UnixSocket addresses it with a leading NUL.
        guard let socket = try? UnixSocket(type: Int32(SOCK_DGRAM.rawValue), path: socketPath) else { return }
        try? socket.sendDatagram(Array(state.utf8), to: socketPath)
    }

    /// Pings the watchdog and refreshes `STATUS=` until shutdown, then says STOPPING=1.
    public func run() async throws {
        guard isActive, watchdogInterval != nil || status != nil else {
            try? await gracefulShutdown()
            notify("STOPPING=1")
            return
        }
        let tick = min(watchdogInterval ?? statusInterval, status == nil ? .seconds(3_600) : statusInterval)
        var nextStatus = time.uptime
        var lastStatus: String?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if watchdogInterval != nil { notify("WATCHDOG=1") }
            if let status, time.uptime >= nextStatus {
                let text = status()
                if text != lastStatus { notify("STATUS=" + text) }
                lastStatus = text
                nextStatus = time.deadline(after: statusInterval)
            }
            // Wakes at once on graceful shutdown instead of sleeping out the interval.
            try? await cancelWhenGracefulShutdown { [time] in try await time.sleep(for: tick) }
        }
        notify("STOPPING=1")
    }
}
