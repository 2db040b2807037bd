import MusterCore
import MusterCrypto
import MusterTime
import Testing

@testable import MusterSync

/// What one connection may send before its session is established.
struct HandshakeGateTests {
    @Test func theHandshakeFramesAtTheirRealSizesThenTheCredentialsThenTheProtocolLimit() throws {
        var gate = HandshakeGate(opened: .zero)
        for size in [64, 112, 24] {
            #expect(gate.frameLimit == size)
            #expect(try gate.check(frameLength: size) == .read)
            gate.frameReceived()
        }
        #expect(gate.phase == .credentials)
        #expect(gate.frameLimit == SyncLimits.maxCredentialsFrameBytes)
        #expect(try gate.check(frameLength: 300) == .read)
        gate.frameReceived()
        #expect(gate.phase == .admitting)
        let admitted = gate.admitted(rekey: false)
        #expect(admitted)
        #expect(gate.phase == .established)
        #expect(try gate.check(frameLength: Int(SyncLimits.maxFrameBytes)) == .read)
    }

    @Test func aThrowawayKeysEightMiBCredentialsFrameIsRefusedAtItsLengthPrefix() throws {
        // The handshake only proves the network key: a throwaway signing key gets this far.
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        let size = Int(SyncLimits.maxFrameBytes) - 1
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: size, limit: SyncLimits.maxCredentialsFrameBytes)) {
            try gate.check(frameLength: size)
        }
        #expect(gate.phase == .closed)
        let admitted = gate.admitted(rekey: false)
        #expect(!admitted)
    }

    @Test func theLargestCredentialsOrRevocationFits() throws {
        // One signed delta of the largest size, sealed: what a kiosk's certificate or the revocation
        // shown to a revoked kiosk can be at most.
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        let largest = 1 + SignedDelta.maxEncodedBytes + SecretStreamReceiver.overheadBytes
        #expect(try gate.check(frameLength: largest) == .read)
        #expect(throws: HandshakeGate.Violation.self) { try gate.check(frameLength: largest + 1) }
    }

    @Test func framesBehindTheCredentialsWaitUnreadForTheVerdict() throws {
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try gate.check(frameLength: 400) == .read)
        gate.frameReceived()
        // An honest listener's roster and hello come right behind its credentials.
        #expect(try gate.check(frameLength: 20) == .wait)
        #expect(gate.holdsReads)
        #expect(try gate.check(frameLength: Int(SyncLimits.maxFrameBytes)) == .wait)
        let admitted = gate.admitted(rekey: false)
        #expect(admitted)
        #expect(!gate.holdsReads)
        #expect(try gate.check(frameLength: Int(SyncLimits.maxFrameBytes)) == .read)
    }

    @Test func aRevokedPeersAppealIsOneFrameUnderTheCredentialsCapWithinTheDeadline() throws {
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try gate.check(frameLength: 300) == .read)
        gate.frameReceived()
        let appealing = gate.appealing()
        #expect(appealing)
        #expect(gate.phase == .appeal)
        #expect(gate.frameLimit == SyncLimits.maxAppealFrameBytes)
        #expect(try gate.check(frameLength: SyncLimits.maxAppealFrameBytes) == .read)
        gate.frameReceived()
        #expect(gate.phase == .admitting, "one frame, then nothing more is read")
        let again = gate.appealing()
        #expect(!again, "one appeal per connection")
        // A larger appeal is refused at its prefix; the deadline still holds while it is awaited.
        var large = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try large.check(frameLength: 300) == .read)
        large.frameReceived()
        let largeAppealing = large.appealing()
        #expect(largeAppealing)
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: 1 << 20, limit: SyncLimits.maxAppealFrameBytes)) {
            try large.check(frameLength: 1 << 20)
        }
        var late = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try late.check(frameLength: 300) == .read)
        late.frameReceived()
        let lateAppealing = late.appealing()
        #expect(lateAppealing)
        #expect(late.expired(now: SyncLimits.handshakeTimeout + .seconds(1)) != nil)
    }

    @Test func aFrameOverTheProtocolLimitIsRefusedEvenWhileWaiting() throws {
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try gate.check(frameLength: 400) == .read)
        gate.frameReceived()
        let size = Int(SyncLimits.maxFrameBytes) + 1
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: size, limit: Int(SyncLimits.maxFrameBytes))) {
            try gate.check(frameLength: size)
        }
        #expect(gate.phase == .closed)
    }

    @Test func aRekeySessionReadsUpToItsOwnCapAndLeavesLargerFramesUnread() throws {
        var gate = try Self.afterTheHandshakeFrames(opened: .zero)
        #expect(try gate.check(frameLength: 400) == .read)
        gate.frameReceived()
        let admitted = gate.admitted(rekey: true)
        #expect(admitted)
        #expect(gate.phase == .rekey)
        #expect(try gate.check(frameLength: SyncLimits.maxRekeyFrameBytes) == .read)
        #expect(!gate.holdsReads)
        #expect(try gate.check(frameLength: SyncLimits.maxRekeyFrameBytes + 1) == .wait)
        #expect(gate.holdsReads)
        #expect(gate.expired(now: .seconds(3_600)) == nil, "a rekey session ends at its linger, not the deadline")
    }

    @Test func anEightMiBFrameBeforeTheHandshakeIsRefusedAtItsLengthPrefix() {
        var gate = HandshakeGate(opened: .zero)
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: 8 * 1024 * 1024, limit: 64)) {
            try gate.check(frameLength: 8 * 1024 * 1024)
        }
        #expect(gate.phase == .closed)
        let admitted = gate.admitted(rekey: false)
        #expect(!admitted)
    }

    @Test func eachHandshakeStepHasItsOwnCap() throws {
        var gate = HandshakeGate(opened: .zero)
        #expect(try gate.check(frameLength: 64) == .read)
        gate.frameReceived()
        #expect(throws: HandshakeGate.Violation.frameTooLarge(size: 113, limit: 112)) {
            try gate.check(frameLength: 113)
        }
    }

    @Test func aLengthPrefixSeenAgainWhileTheFrameArrivesChangesNothing() throws {
        // The decoder asks again each time more of the same frame arrives.
        var gate = HandshakeGate(opened: .zero)
        for _ in 0..<5 { #expect(try gate.check(frameLength: 64) == .read) }
        #expect(gate.phase == .handshake(frames: 0))
    }

    @Test func theDeadlineClosesASlowHandshake() async throws {
        let clock = ManualClock()
        var gate = HandshakeGate(opened: clock.uptime)
        #expect(try gate.check(frameLength: 64) == .read)
        gate.frameReceived()
        clock.advance(by: .milliseconds(4_999))
        #expect(gate.expired(now: clock.uptime) == nil)
        // A trickler never completes a frame; time alone ends it.
        clock.advance(by: .milliseconds(1))
        #expect(gate.expired(now: clock.uptime) == .deadline(.seconds(5)))
        #expect(gate.phase == .closed)
        let admitted = gate.admitted(rekey: false)
        #expect(!admitted, "a session must not start on a connection the deadline closed")
    }

    /// A gate that has seen every frame of the handshake (the credentials not yet).
    static func afterTheHandshakeFrames(opened: Duration) throws -> HandshakeGate {
        var gate = HandshakeGate(opened: opened)
        for size in HandshakeGate.handshakeFrames {
            _ = try gate.check(frameLength: size)
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

    @Test func theDeadlineCoversTheVerdictToo() throws {
        let clock = ManualClock()
        var gate = try Self.afterTheHandshakeFrames(opened: clock.uptime)
        #expect(try gate.check(frameLength: 400) == .read)
        gate.frameReceived()
        clock.advance(by: .seconds(5))
        #expect(gate.expired(now: clock.uptime) == .deadline(.seconds(5)))
    }

    @Test func anEstablishedSessionHasNoDeadline() throws {
        let clock = ManualClock()
        var gate = try Self.afterTheHandshakeFrames(opened: clock.uptime)
        clock.advance(by: .milliseconds(40))
        let admitted = gate.admitted(rekey: false)
        #expect(admitted)
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
