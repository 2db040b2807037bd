import Foundation
import Logging
import MusterControl
import MusterRules
import MusterTestSupport
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import MusterDaemon

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`.
private final class NotifySocket: @unchecked Sendable {
    let fd: Int32
    let name: String

    /// - Parameter abstractName: bind in the abstract namespace (written `@name` in `NOTIFY_SOCKET`).
    init(path: String? = nil, abstractName: String? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        name = abstractName.map { "@" + $0 } ?? path!
        let bound = UnixSocketAddress.with(path: abstractName ?? path!, abstract: abstractName != nil) { [fd] in
            bind(fd, $0, $1)
        }
        guard bound == 0 else {
            let reason = UnixSocketAddress.lastError
            close(fd)
            throw TestFailure("bind failed: \(reason)")
        }
    }

    deinit { close(fd) }

    /// The next datagram, waiting at most `seconds`; nil on timeout.
    func receive(within seconds: Int) -> String? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Datagrams until `predicate` matches, within an overall deadline.
    func receive(until predicate: (String) -> Bool, within seconds: Int) -> [String] {
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var seen: [String] = []
        while Date() < deadline, let message = receive(within: max(1, Int(deadline.timeIntervalSinceNow.rounded(.up))))
        {
            seen.append(message)
            if predicate(message) { break }
        }
        return seen
    }
}

/// The notifier's timers run on the cooperative pool, which the rest of the parallel suite keeps
/// busy: on a loaded 2-core machine a 50 ms timer has been seen to fire 5 s late. Every wait here
/// therefore has a generous deadline (`patience`) and returns as soon as the datagram arrives.
@Suite("SystemdNotifier")
struct SystemdNotifierTests {
    /// How long a test waits for a datagram the notifier owes it.
    static let patience = 60

    @Test func inactiveWithoutNotifySocket() {
        #expect(!SystemdNotifier(environment: [:]).isActive)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).isActive)
        SystemdNotifier(environment: [:]).notify("READY=1")  // a no-op, must not crash
    }

    /// Runs `body` with a notify socket bound to a path in a fresh directory.
    private static func withPathSocket(_ body: (NotifySocket) async throws -> Void) async throws {
        try await TemporaryDirectory.with("muster-sd") { (dir) async throws in
            try await body(try NotifySocket(path: dir.file("notify")))
        }
    }

    /// The next datagrams, waiting for each with `patience`.
    private static func next(_ count: Int, from socket: NotifySocket) async throws -> [String?] {
        try await TestSupport.blocking { (0..<count).map { _ in socket.receive(within: Self.patience) } }
    }

    /// The datagrams up to `STOPPING=1`.
    private static func untilStopping(from socket: NotifySocket) async throws -> [String] {
        try await TestSupport.blocking { socket.receive(until: { $0 == "STOPPING=1" }, within: Self.patience) }
    }

    @Test func sendsToAPathSocket() async throws {
        try await Self.withPathSocket { (socket) async throws in
            let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
            #expect(notifier.isActive)
            notifier.notify("READY=1\nSTATUS=serving as Hall A")
            #expect(
                try await TestSupport.blocking { socket.receive(within: 2) } == "READY=1\nSTATUS=serving as Hall A"
            )
        }
    }

    @Test func sendsToAnAbstractSocket() async throws {
        let socket = try NotifySocket(abstractName: "muster-test-\(UUID().uuidString)")
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        notifier.notify("READY=1")
        #expect(try await TestSupport.blocking { socket.receive(within: 2) } == "READY=1")
    }

    /// Runs a notifier on a fresh path socket (with `environment` besides `NOTIFY_SOCKET`) under
    /// the graceful-shutdown test trigger, and hands `body` the socket, the trigger and the run.
    private static func withRunningNotifier(
        _ environment: [String: String] = [:],
        statusInterval: Duration = .seconds(10),
        status: (@Sendable () -> String)? = nil,
        _ body: (NotifySocket, GracefulShutdownTestTrigger, Task<Void, any Error>) async throws -> Void
    ) async throws {
        try await withPathSocket { (socket) async throws in
            let notifier = SystemdNotifier(
                environment: environment.merging(["NOTIFY_SOCKET": socket.name]) { _, new in new },
                statusInterval: statusInterval,
                status: status
            )
            try await TestSupport.withGracefulShutdown(running: notifier) { try await body(socket, $0, $1) }
        }
    }

    @Test func watchdogPingsThenStoppingOnGracefulShutdown() async throws {
        try await Self.withRunningNotifier(["WATCHDOG_USEC": "100000"]) { (socket, trigger, run) async throws in
            let pings = try await Self.next(2, from: socket)
            #expect(pings == ["WATCHDOG=1", "WATCHDOG=1"], "pings repeat at half the interval")
            trigger.triggerGracefulShutdown()
            let messages = try await Self.untilStopping(from: socket)
            #expect(messages.last == "STOPPING=1")
            #expect(messages.allSatisfy { $0 == "WATCHDOG=1" || $0 == "STOPPING=1" })
            try await run.value
        }
    }

    /// With the usual systemd watchdog of tens of seconds, shutdown should not wait for the next ping.
    @Test func gracefulShutdownDoesNotWaitForTheNextPing() async throws {
        // A 10-minute watchdog: one ping at start, the next after 5 minutes.
        try await Self.withRunningNotifier(["WATCHDOG_USEC": "600000000"]) { (socket, trigger, _) async throws in
            #expect(try await Self.next(1, from: socket) == ["WATCHDOG=1"])
            trigger.triggerGracefulShutdown()
            // Well under the 5 minutes until the next ping, however loaded the machine.
            #expect(try await Self.next(1, from: socket) == ["STOPPING=1"])
        }
    }

    /// STATUS= is refreshed on its own interval and sent only when the text changes.
    @Test func statusLinesFollowTheProviderAndRepeatOnlyOnChange() async throws {
        let texts = Mutex(["serving; 1 peer(s)", "serving; 1 peer(s)", "serving; 2 peer(s)"])
        let status: @Sendable () -> String = { texts.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] } }
        let interval = Duration.milliseconds(50)
        try await Self.withRunningNotifier(statusInterval: interval, status: status) {
            (socket, trigger, run) async throws in
            let lines = try await Self.next(2, from: socket)
            #expect(lines == ["STATUS=serving; 1 peer(s)", "STATUS=serving; 2 peer(s)"])
            trigger.triggerGracefulShutdown()
            let rest = try await Self.untilStopping(from: socket)
            #expect(rest == ["STOPPING=1"], "no repeated STATUS= for an unchanged text")
            try await run.value
        }
    }
}
