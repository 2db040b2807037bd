import MusterTime
import Testing

@testable import MusterSync

/// What one connection may send before its session is established.
struct HandshakeGateTests {
    @Test func theHandshakeFramesAtTheirRealSizesThenTheProtocolLimit() throws {
        var gate = HandshakeGate(opened: .zero)
        for size in [64, 112, 24] {
            #expect(gate.frameLimit == size)
            try gate.check(frameLength: size)
            gate.frameReceived()
        }
        #expect(gate.phase == .credentials)
        #expect(gate.frameLimit == Int(SyncLimits.maxFrameBytes))
        try gate.check(frameLength: 300)
        let established = gate.established()
        #expect(established)
        try gate.check(frameLength: Int(SyncLimits.maxFrameBytes))
    }

    @Test func anEightMiBFrameBeforeTheHandshakeIsRefusedAtItsLengthPrefix() {
        var gate = HandshakeGate(opened: .zero)
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: 8 * 1024 * 1024, limit: 64)) {
            try gate.check(frameLength: 8 * 1024 * 1024)
        }
        #expect(gate.phase == .closed)
        let established = gate.established()
        #expect(!established)
    }

    @Test func eachHandshakeStepHasItsOwnCap() throws {
        var gate = HandshakeGate(opened: .zero)
        try gate.check(frameLength: 64)
        gate.frameReceived()
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: 113, limit: 112)) {
            try gate.check(frameLength: 113)
        }
    }

    @Test func aLengthPrefixSeenAgainWhileTheFrameArrivesChangesNothing() throws {
        // The decoder asks again each time more of the same frame arrives.
        var gate = HandshakeGate(opened: .zero)
        for _ in 0..<5 { try gate.check(frameLength: 64) }
        #expect(gate.phase == .handshake(frames: 0))
    }

    @Test func theDeadlineClosesASlowHandshake() async throws {
        let clock = ManualClock()
        var gate = HandshakeGate(opened: clock.uptime)
        try gate.check(frameLength: 64)
        gate.frameReceived()
        clock.advance(by: .milliseconds(4_999))
        #expect(gate.expired(now: clock.uptime) == nil)
        // A trickler never completes a frame; time alone ends it.
        clock.advance(by: .milliseconds(1))
        #expect(gate.expired(now: clock.uptime) == .deadline(.seconds(5)))
        #expect(gate.phase == .closed)
        let established = gate.established()
        #expect(!established, "a session must not start on a connection the deadline closed")
    }

    /// A gate that has seen every frame of the handshake (the credentials included).
    static func afterTheHandshakeFrames(opened: Duration) throws -> HandshakeGate {
        var gate = HandshakeGate(opened: opened)
        for size in HandshakeGate.handshakeFrames {
            try gate.check(frameLength: size)
            gate.frameReceived()
        }
        return gate
    }

    @Test func theDeadlineCoversTheCredentialsToo() throws {
        let clock = ManualClock()
        var gate = try Self.afterTheHandshakeFrames(opened: clock.uptime)
        clock.advance(by: .seconds(5))
        #expect(gate.expired(now: clock.uptime) != nil)
    }

    @Test func anEstablishedSessionHasNoDeadline() throws {
        let clock = ManualClock()
        var gate = try Self.afterTheHandshakeFrames(opened: clock.uptime)
        clock.advance(by: .milliseconds(40))
        let established = gate.established()
        #expect(established)
        clock.advance(by: .seconds(3_600))
        #expect(gate.expired(now: clock.uptime) == nil)
        #expect(gate.phase == .established)
    }

    @Test func theDeadlineTimerFiresOnTheInjectedClock() async throws {
        // The way ConnectionGuard waits: sleep on the clock until the gate's deadline, then ask.
        let clock = ManualClock()
        let gate = HandshakeGate(opened: clock.uptime, timeout: .seconds(5))
        let fired = Task {
            try await clock.sleep(until: gate.deadline)
            var copy = gate
            return copy.expired(now: clock.uptime)
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(4))
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(1))
        #expect(try await fired.value == .deadline(.seconds(5)))
    }
}
