import Testing

@testable import MusterSync

/// The digest is computed when the replica was quiet for an interval, or every few intervals
/// while it keeps changing; the heap is trimmed once per quiet spell after a change.
struct DigestCadenceTests {
    @Test func aQuietReplicaIsHashedAndTrimmedOncePerChange() {
        var cadence = DigestCadence()
        #expect(cadence.tick(version: 1) == (false, false), "changed during the first interval")
        #expect(cadence.tick(version: 1) == (true, true), "quiet for an interval after a change")
        #expect(cadence.tick(version: 1) == (false, true), "still quiet: hashed, not trimmed again")
        #expect(cadence.tick(version: 2) == (false, false))
        #expect(cadence.tick(version: 2) == (true, true))
    }

    @Test func aBusyReplicaIsHashedEverySixthInterval() {
        var cadence = DigestCadence()
        var digests: [Int] = []
        for interval in 1...13 where cadence.tick(version: UInt64(interval)).computeDigest {
            digests.append(interval)
        }
        #expect(digests == [DigestCadence.busyEvery, 2 * DigestCadence.busyEvery])
    }
}
