import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// Which network key a kiosk dials with and which it accepts, as revocations rotate the key.
struct NetworkKeyRingTests {
    static let hour: UInt64 = 3_600_000
    static let start: UInt64 = 1_800_000_000_000

    static func key(_ byte: UInt8) throws -> SecureBytes {
        try SecureBytes(copying: [UInt8](repeating: byte, count: 32))
    }
    static func sealed(_ byte: UInt8, generation: UInt64, at millis: UInt64) -> SealedNetworkKey {
        SealedNetworkKey(generation: generation, sealed: [UInt8](repeating: byte, count: 80), issuedAtMillis: millis)
    }

    /// The venue file's key (generation 0), then a revocation at `start` that seals generation 1.
    static func rotatedRing() throws -> (NetworkKeyRing, SealedNetworkKey) {
        var ring = NetworkKeyRing(venueKey: try Self.key(0), generation: 0)
        let first = Self.sealed(1, generation: 1, at: start)
        let rotated = ring.update(with: [first], opened: [(first, try Self.key(1))])
        #expect(rotated)
        return (ring, first)
    }

    @Test func theNewestKeyIsDialledAndTheOldOneAcceptedOnlyDuringItsGrace() throws {
        let (ring, _) = try Self.rotatedRing()
        #expect(ring.generation == 1)
        let now = Self.start + Self.hour
        #expect(ring.dialKey(attempt: 0, nowMillis: now).index == 0)
        // After a failure, the older key (a peer that was off during the rotation holds only that one).
        #expect(ring.dialKey(attempt: 1, nowMillis: now).index == 1)
        #expect(ring.accepted(nowMillis: now).map(\.index) == [0, 1])
        // 48 hours after the revocation was signed, the old key is refused and never dialled.
        let late = Self.start + 48 * Self.hour
        #expect(ring.accepted(nowMillis: late).map(\.index) == [0])
        #expect(ring.dialKey(attempt: 1, nowMillis: late).index == 0)
    }

    @Test func ofTwoKeysOfOneGenerationTheReplicasWinnerIsCurrentAndTheOtherRetired() throws {
        let (ring0, first) = try Self.rotatedRing()
        var ring = ring0
        // The other side of a partition rotated to generation 1 too; the replica kept its key (lower
        // hash), so it is current here from now on, and ours is retired from when it was signed.
        let other = Self.sealed(2, generation: 1, at: Self.start + Self.hour)
        let rotated = ring.update(with: [other], opened: [(other, try Self.key(2))])
        #expect(rotated)
        #expect(ring.entries.map(\.sealed) == [other.sealed, first.sealed, []])
        #expect(ring.entries[1].retiredAtMillis == other.issuedAtMillis)
        #expect(ring.entries[2].retiredAtMillis == first.issuedAtMillis)
        // Nothing new: no change.
        let changed = ring.update(with: [other], opened: [])
        #expect(!changed)
        #expect(ring.unopened([other]).isEmpty)
    }

    /// A dial loop walks back through the ring while its dials fail, and starts again from the
    /// current key after a session or a rekey session.
    @Test func failedDialsTryOlderKeysAndASuccessGoesBackToTheCurrentOne() throws {
        let (ring, _) = try Self.rotatedRing()
        let now = Self.start + Self.hour
        var attempt = 0
        var dialled: [Int] = []
        for succeeded in [false, false, true] {
            dialled.append(ring.dialKey(attempt: attempt, nowMillis: now).index)
            attempt = NetworkKeyRing.nextAttempt(after: attempt, succeeded: succeeded)
        }
        dialled.append(ring.dialKey(attempt: attempt, nowMillis: now).index)
        #expect(dialled == [0, 1, 0, 0])
    }

    /// Of two revocations announcing one generation the lower hash's key stays, in either order; a
    /// handed-over key yields to any revocation's and never replaces one.
    @Test func theLowerHashsKeyWinsAndAHandedKeyYields() {
        let low = [UInt8](repeating: 1, count: 32)
        let high = [UInt8](repeating: 2, count: 32)
        #expect(NetworkKeyChoice.replaces(low, over: nil))
        #expect(NetworkKeyChoice.replaces(low, over: high))
        #expect(!NetworkKeyChoice.replaces(high, over: low))
        #expect(!NetworkKeyChoice.replaces(low, over: low))
        #expect(NetworkKeyChoice.replaces(high, over: NetworkKeyChoice.handedSource))
        #expect(!NetworkKeyChoice.replaces(NetworkKeyChoice.handedSource, over: high))
        #expect(!NetworkKeyChoice.replaces(NetworkKeyChoice.handedSource, over: NetworkKeyChoice.handedSource))
        #expect(NetworkKeyChoice.replaces(NetworkKeyChoice.handedSource, over: nil))
    }

    /// The replica's sealed keys are opened with the kiosk's key: one sealed to it becomes current,
    /// one sealed to another kiosk is reported and left out, and nothing is opened twice.
    @Test func refreshOpensWhatIsSealedToThisKioskAndReportsTheRest() throws {
        let me = try SigningKeyPair.generate()
        let other = try SigningKeyPair.generate()
        let mine = SealedNetworkKey(
            generation: 1,
            sealed: try SealedBox.seal(try Self.key(1), to: me.publicKey),
            issuedAtMillis: Self.start
        )
        let theirs = SealedNetworkKey(
            generation: 2,
            sealed: try SealedBox.seal(try Self.key(2), to: other.publicKey),
            issuedAtMillis: Self.start
        )
        var ring = NetworkKeyRing(venueKey: try Self.key(0), generation: 0)
        let (changed, failed) = ring.refresh(with: [theirs, mine], keyPair: me)
        #expect(changed)
        #expect(ring.generation == 1)
        #expect(ring.entries[0].key.constantTimeEquals(try Self.key(1)))
        #expect(failed.map(\.0.generation) == [2])
        #expect(!ring.refresh(with: [mine], keyPair: me).changed)
    }
}
