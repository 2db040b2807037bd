import MusterCore
import MusterStore
import Testing

@testable import MusterSim

/// The checker on deliberately broken histories: each kind of failure is detected, and a sound
/// history passes.
@Suite struct CheckerTests {
    /// Three check-ins written by k1 (two acknowledged), and a delta k2 signed but never wrote.
    struct Fixture {
        let written: [SignedDelta]
        let forged: SignedDelta

        init() throws {
            var random = SimRandom(seed: 42)
            let venue = try SimVenue(kiosks: 2, random: &random)
            var signer = DeltaSigner(
                venue: venue.policy.venue,
                keyPair: venue.kioskKeys[0],
                head: .empty(venue.kioskIDs[0])
            )
            written = try (0..<3).map { index in
                try signer.sign(
                    SimVenue.checkInBody(index: index, kiosk: 0),
                    hlc: HLC(physicalMillis: SimVenue.startMillis + UInt64(index), logical: 0)
                )
            }
            var other = DeltaSigner(
                venue: venue.policy.venue,
                keyPair: venue.kioskKeys[1],
                head: .empty(venue.kioskIDs[1])
            )
            forged = try other.sign(
                SimVenue.checkInBody(index: 99, kiosk: 1),
                hlc: HLC(physicalMillis: SimVenue.startMillis, logical: 0)
            )
        }

        func history(_ kiosks: [History.Kiosk]) -> History {
            History(
                written: Dictionary(uniqueKeysWithValues: written.map { ($0.ref, $0) }),
                acknowledged: written.prefix(2).map(\.ref),
                kiosks: kiosks
            )
        }
    }

    @Test func soundHistoryPasses() throws {
        let fixture = try Fixture()
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: fixture.written, digest: "d"),
                .init(name: "k2", live: true, deltas: fixture.written, digest: "d"),
            ])
        )
        #expect(report.passed)
        #expect(report.problems.isEmpty)
    }

    @Test func lostAcknowledgedCheckInIsDetected() throws {
        let fixture = try Fixture()
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: fixture.written, digest: "d"),
                .init(name: "k2", live: true, deltas: [fixture.written[0]], digest: "d"),
            ])
        )
        #expect(!report.passed)
        #expect(report.lost == 1)
        #expect(report.lostCheckIns == [fixture.written[1].ref])
        #expect(report.problems.contains { $0.contains("k2 misses acknowledged") })
    }

    @Test func unacknowledgedMissingIsNotLostAndDownKioskIsNotJudged() throws {
        let fixture = try Fixture()
        // k2 misses the unacknowledged third check-in; k3 is down and holds nothing.
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: fixture.written, digest: "d"),
                .init(name: "k2", live: true, deltas: Array(fixture.written.prefix(2)), digest: "d"),
                .init(name: "k3", live: false, deltas: [], digest: "empty"),
            ])
        )
        #expect(report.lost == 0)
        #expect(report.phantoms == 0)
        #expect(report.digestsEqual)
    }

    @Test func phantomIsDetected() throws {
        let fixture = try Fixture()
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: fixture.written, digest: "d"),
                .init(name: "k2", live: true, deltas: fixture.written + [fixture.forged], digest: "d"),
            ])
        )
        #expect(!report.passed)
        #expect(report.phantoms == 1)
        #expect(report.lost == 0)
    }

    @Test func differentBytesUnderAWrittenRefIsAPhantom() throws {
        let fixture = try Fixture()
        let original = fixture.written[0]
        var tampered = original.signature
        tampered[0] ^= 0x01
        let forgedCopy = try SignedDelta(envelope: original.envelope, signature: tampered)
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: [forgedCopy] + fixture.written.dropFirst(), digest: "d")
            ])
        )
        #expect(report.phantoms == 1)
        // The acknowledged original is not there either.
        #expect(report.lost == 1)
    }

    @Test func digestMismatchIsDetected() throws {
        let fixture = try Fixture()
        let report = Checker.check(
            fixture.history([
                .init(name: "k1", live: true, deltas: fixture.written, digest: "aaaa"),
                .init(name: "k2", live: true, deltas: fixture.written, digest: "bbbb"),
            ])
        )
        #expect(!report.passed)
        #expect(!report.digestsEqual)
        #expect(report.lost == 0 && report.phantoms == 0)
    }
}
