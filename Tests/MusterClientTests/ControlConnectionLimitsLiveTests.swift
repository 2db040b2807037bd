import Foundation
import MusterControl
import MusterDaemon
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// What a peer that is not staff can hold through the control socket (issue 32, item 5), against a
/// live server: here the test's own user is made the screen's user, so its raw connections are what
/// a process escaped from the screen would open.
@Suite("Control connection limits (live socket)")
struct ControlConnectionLimitsLiveTests {
    static func gate(screen: Bool, clock: ManualClock = ManualClock(), perPeer: Int = 16) -> ControlGate {
        ControlGate(
            roles: ControlPeerRoles(
                staffUIDs: screen ? [] : [geteuid()],
                staffGID: nil,
                screenUID: screen ? geteuid() : nil
            ),
            throttle: LookupThrottle.Settings(screen: ScreenOptions()),
            time: clock,
            connections: .init(total: 64, perPeer: perPeer)
        )
    }

    static let screenRequest = #"{"op":"screen"}"# + "\n"

    /// Whether a fresh connection of the screen's user is served (answered, not closed).
    static func served(_ daemon: LiveDaemon) async throws -> Bool {
        try await daemon.withRawSocket { socket in
            socket.send(Self.screenRequest)
            guard case .line(let line) = socket.readLine() else { return false }
            return line.contains(#""outcome":"status""#)
        }
    }

    @Test func anIdleConnectionOfTheScreensUserIsClosedAfterTheTimeout() async throws {
        let clock = ManualClock()
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screen: true, clock: clock))
        let socket = try RawSocket(path: daemon.socketPath, timeoutSeconds: 1)
        socket.send(Self.screenRequest)
        // The answer, however long a loaded machine takes to give it (each read waits 1 s): the
        // daemon counts the idle time from before the answer could be read, so it starts at zero.
        let answer = try await TestSupport.blocking { () -> RawSocket.ReadResult in
            var result = socket.readLine()
            for _ in 0..<30 where result == .timedOut { result = socket.readLine() }
            return result
        }
        guard case .line = answer else {
            Issue.record("the screen's request was not answered: \(answer)")
            return
        }
        // Its timer waits on the injected clock; one second short of the timeout it stays open.
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: ControlLimits.idleTimeout - .seconds(1))
        #expect(try await TestSupport.blocking { socket.readLine() } == .timedOut)
        clock.advance(by: .seconds(1))
        let after = try await TestSupport.blocking { () -> RawSocket.ReadResult in
            var result = socket.readLine()
            for _ in 0..<10 where result == .timedOut { result = socket.readLine() }
            return result
        }
        #expect(after == .closed, "an idle connection of the screen's user stayed open")
        // The screen's next connection is served.
        #expect(try await Self.served(daemon))
    }

    @Test func aStaffConnectionHasNoIdleTimeout() async throws {
        let clock = ManualClock()
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screen: false, clock: clock))
        let socket = try RawSocket(path: daemon.socketPath, timeoutSeconds: 10)
        clock.advance(by: .seconds(3_600))
        socket.send(#"{"op":"ping"}"# + "\n")
        let answer = try await TestSupport.blocking { socket.readLine() }
        guard case .line(let line) = answer else {
            Issue.record("staff connection closed after an idle hour: \(answer)")
            return
        }
        #expect(line.contains(#""outcome":"pong""#))
    }

    @Test func theScreensUserGetsItsShareOfConnectionsAndShortLines() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Self.gate(screen: true, perPeer: 3))
        let path = daemon.socketPath
        // Three held connections, each answered: the share.
        let held = try (0..<3).map { _ in try RawSocket(path: path) }
        for socket in held {
            socket.send(Self.screenRequest)
            #expect(try await TestSupport.blocking { socket.readLine() } != .closed)
        }
        // A fourth is closed at once, without an answer.
        #expect(try await !Self.served(daemon), "a connection past the share was served")
        // A line longer than the screen's limit closes its connection, nothing answered.
        held[0].send(String(repeating: "x", count: ControlLimits.screenLineBytes + 1))
        #expect(try await TestSupport.blocking { held[0].readLine() } == .closed)
        // Its slot is free again: an honest request on a new connection is answered.
        // A minute: the deadline only ends a broken test, and the parallel suite can keep the
        // daemon's threads busy for many seconds on two cores.
        let deadline = ContinuousClock.now + .seconds(60)
        var servedAgain = false
        while !servedAgain && ContinuousClock.now < deadline {
            servedAgain = try await Self.served(daemon)
        }
        #expect(servedAgain, "the slot of the closed connection never came back")
    }
}
