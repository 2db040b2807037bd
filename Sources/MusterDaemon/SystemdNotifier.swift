import Foundation
public import ServiceLifecycle

/// Talks to systemd through `$NOTIFY_SOCKET` (`sd_notify(3)`): `READY=1` once the daemon serves,
/// `STATUS=` lines, `WATCHDOG=1` at half the watchdog interval, `STOPPING=1` on shutdown.
/// Does nothing when not started by systemd.
public final class SystemdNotifier: Service, Sendable {
    let socketPath: String?
    let watchdogInterval: Duration?
    let statusInterval: Duration
    /// The current `STATUS=` text (sent when it changes), or nil for none.
    let status: (@Sendable () -> String)?

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, statusInterval: Duration = .seconds(10),
        status: (@Sendable () -> String)? = nil
    ) {
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
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract socket is written with a leading '@' and addressed with a leading NUL.
        var pathBytes = Array(socketPath.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                sendto(fd, message, message.count, 0, sockaddrPointer, length)
            }
        }
    }

    /// Pings the watchdog and refreshes `STATUS=` until shutdown, then says STOPPING=1.
    public func run() async throws {
        guard isActive, watchdogInterval != nil || status != nil else {
            try? await gracefulShutdown()
            notify("STOPPING=1")
            return
        }
        let tick = min(watchdogInterval ?? statusInterval, status == nil ? .seconds(3_600) : statusInterval)
        let clock = ContinuousClock()
        var nextStatus = clock.now
        var lastStatus: String?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if watchdogInterval != nil { notify("WATCHDOG=1") }
            if let status, clock.now >= nextStatus {
                let text = status()
                if text != lastStatus { notify("STATUS=" + text) }
                lastStatus = text
                nextStatus = clock.now.advanced(by: statusInterval)
            }
            // Wakes at once on graceful shutdown instead of sleeping out the interval.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: tick) }
        }
        notify("STOPPING=1")
    }
}
