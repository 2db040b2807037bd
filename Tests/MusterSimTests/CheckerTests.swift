import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules
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
            var signer = DeltaSigner(venue: venue.policy.venue, startingLogOf: venue.kioskKeys[0])
            written = try signer.sign(
                (0..<3).map { SimVenue.checkInBody(index: $0, kiosk: 0) },
                fromMillis: SimVenue.startMillis
            )
            var other = DeltaSigner(venue: venue.policy.venue, startingLogOf: venue.kioskKeys[1])
            forged = try other.sign(
                SimVenue.checkInBody(index: 99, kiosk: 1),
                hlc: HLC(physicalMillis: SimVenue.startMillis, logical: 0)
            )
        }

        /// The checker's report on a history in which these kiosks end as given.
        func check(_ kiosks: [History.Kiosk]) -> CheckReport { Checker.check(history(kiosks)) }

        /// A live kiosk holding `deltas` (every written delta unless told otherwise).
        func kiosk(_ name: String, _ deltas: [SignedDelta]? = nil, digest: String = "d") -> History.Kiosk {
            History.Kiosk(name: name, live: true, deltas: deltas ?? written, digest: digest)
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
        let report = fixture.check([fixture.kiosk("k1"), fixture.kiosk("k2")])
        #expect(report.passed)
        #expect(report.problems.isEmpty)
    }

    @Test func lostAcknowledgedCheckInIsDetected() throws {
        let fixture = try Fixture()
        let report = fixture.check([fixture.kiosk("k1"), fixture.kiosk("k2", [fixture.written[0]])])
        #expect(!report.passed)
        #expect(report.lost == 1)
        #expect(report.lostCheckIns == [fixture.written[1].ref])
        #expect(report.problems.contains { $0.contains("k2 misses acknowledged") })
    }

    @Test func unacknowledgedMissingIsNotLostAndDownKioskIsNotJudged() throws {
        let fixture = try Fixture()
        // k2 misses the unacknowledged third check-in; k3 is down and holds nothing.
        let report = fixture.check(
            [
                fixture.kiosk("k1"),
                fixture.kiosk("k2", Array(fixture.written.prefix(2))),
                .init(name: "k3", live: false, deltas: [], digest: "empty"),
            ]
        )
        #expect(report.lost == 0)
        #expect(report.phantoms == 0)
        #expect(report.digestsEqual)
    }

    @Test func phantomIsDetected() throws {
        let fixture = try Fixture()
        let report = fixture.check([fixture.kiosk("k1"), fixture.kiosk("k2", fixture.written + [fixture.forged])])
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
        let report = fixture.check([fixture.kiosk("k1", [forgedCopy] + fixture.written.dropFirst())])
        #expect(report.phantoms == 1)
        // The acknowledged original is not there either.
        #expect(report.lost == 1)
    }

    @Test func digestMismatchIsDetected() throws {
        let fixture = try Fixture()
        let report = fixture.check([fixture.kiosk("k1", digest: "aaaa"), fixture.kiosk("k2", digest: "bbbb")])
        #expect(!report.passed)
        #expect(!report.digestsEqual)
        #expect(report.lost == 0 && report.phantoms == 0)
    }

    /// What the organizer's revocation of k1 set aside (its second check-in onwards) is no loss,
    /// but a live kiosk that still holds it breaks the revocation; the revoked kiosk is not judged.
    @Test func whatARevocationSetAsideIsNoLossButMustBeGone() throws {
        let fixture = try Fixture()
        var history = fixture.history(
            [
                fixture.kiosk("k1"),
                fixture.kiosk("k2", [fixture.written[0]]),
                fixture.kiosk("k3", [fixture.written[0]]),
            ]
        )
        history.revoked = "k1"
        history.setAside = Set(fixture.written.dropFirst().map(\.ref))
        let sound = Checker.check(history)
        #expect(sound.passed, "\(sound.problems)")
        history.kiosks[2] = fixture.kiosk("k3", Array(fixture.written.prefix(2)), digest: "d")
        let kept = Checker.check(history)
        #expect(kept.violations == 1)
        #expect(kept.problems.contains { $0.contains("k3 holds") && $0.contains("set aside") })
        // Without the revocation the same history loses an acknowledged check-in.
        history.setAside = []
        history.kiosks[2] = fixture.kiosk("k3", [fixture.written[0]])
        #expect(Checker.check(history).lost == 2)
    }

    /// A rotation that did not reach every live kiosk is a violation: they could not meet again.
    @Test func liveKiosksOnDifferentNetworkKeysFail() throws {
        let fixture = try Fixture()
        var history = fixture.history([fixture.kiosk("k1"), fixture.kiosk("k2")])
        history.kiosks[0].networkKey = "1:aa"
        history.kiosks[1].networkKey = "1:aa"
        #expect(Checker.check(history).passed)
        history.kiosks[1].networkKey = "0:bb"
        let split = Checker.check(history)
        #expect(split.violations == 1)
        #expect(split.problems.contains { $0.contains("different network keys") })
        // A kiosk that is down at the end is not expected to have heard of the rotation.
        history.kiosks[1].live = false
        #expect(Checker.check(history).passed)
    }
}

/// The doors checks (``Checker/checkDoors(_:into:)``) on hand-made reports: each lie is caught.
@Suite struct DoorsCheckerTests {
    static let ref1 = DeltaRef(author: AuthorID(bytes: [UInt8](repeating: 1, count: 32))!, seq: 1)
    static let ref2 = DeltaRef(author: AuthorID(bytes: [UInt8](repeating: 2, count: 32))!, seq: 1)
    static let ref3 = DeltaRef(author: AuthorID(bytes: [UInt8](repeating: 3, count: 32))!, seq: 1)

    static func admission(_ ref: DeltaRef) -> Conflict.Admission {
        Conflict.Admission(ref: ref, kioskName: "k", location: "Hall", atMillis: 1)
    }

    static func double(_ key: String, _ first: DeltaRef, _ second: DeltaRef) -> Conflict {
        Conflict(
            kind: .enteredTwice,
            attendeeKey: key,
            zone: "Hall",
            first: admission(first),
            second: admission(second),
            inside: nil,
            capacity: nil
        )
    }

    /// a@ admitted twice, b@ once.
    static let admissions = ["a@": [ref1, ref2], "b@": [ref3]]

    static func check(_ conflicts: [String: [Conflict]], heard: Int = 0) -> CheckReport {
        var report = CheckReport()
        Checker.checkDoors(
            History.Doors(admissions: admissions, admittedAfterHearing: heard, conflicts: conflicts),
            into: &report
        )
        return report
    }

    @Test func theTrueReportOnEveryKioskPasses() {
        let truth = [Self.double("a@", Self.ref1, Self.ref2)]
        #expect(Self.check(["k1": truth, "k2": truth]).passed)
    }

    @Test func aMissedDoubleIsCaught() {
        #expect(!Self.check(["k1": [], "k2": []]).passed)
    }

    @Test func aDoubleForSomeoneAdmittedOnceIsCaught() {
        let truth = [Self.double("a@", Self.ref1, Self.ref2)]
        let extra = truth + [Self.double("b@", Self.ref3, Self.ref3)]
        #expect(!Self.check(["k1": extra]).passed)
        #expect(!Self.check(["k1": truth + [Self.double("c@", Self.ref1, Self.ref3)]]).passed)
    }

    @Test func aDoubleMadeOfAnotherAttendeesAdmissionIsCaught() {
        #expect(!Self.check(["k1": [Self.double("a@", Self.ref1, Self.ref3)]]).passed)
    }

    @Test func kiosksThatDisagreeAreCaught() {
        let truth = [Self.double("a@", Self.ref1, Self.ref2)]
        let report = Self.check(["k1": truth, "k2": [Self.double("a@", Self.ref2, Self.ref1)]])
        #expect(!report.passed)
        #expect(report.problems.contains { $0.contains("not the same list") })
    }

    @Test func aDoorThatAdmittedWhatItHeardIsCaught() {
        let truth = [Self.double("a@", Self.ref1, Self.ref2)]
        #expect(!Self.check(["k1": truth], heard: 1).passed)
    }
}
