import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterClient

/// `muster fleet` from a hand-made roster and daemon answer: every enrolled kiosk appears, heard or
/// not, with what this kiosk knows of it.
@Suite struct FleetReportTests {
    static func id(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }

    static let roster = [
        RosterEntry(kiosk: id(1), name: "Hall A", location: "Main", revokedWatermark: nil),
        RosterEntry(kiosk: id(2), name: "Hall B", location: "North", revokedWatermark: nil),
        RosterEntry(kiosk: id(3), name: "Annex", location: "", revokedWatermark: nil),
        RosterEntry(kiosk: id(4), name: "Desk", location: "", revokedWatermark: nil),
        RosterEntry(kiosk: id(5), name: "Lost", location: "", revokedWatermark: 12),
        RosterEntry(kiosk: id(6), name: "Laptop", location: "", revokedWatermark: nil, role: .organizerDevice),
    ]

    static func report(daemon: StatusAnswer?) -> FleetReport {
        FleetReport(
            roster: roster,
            me: daemon == nil ? nil : id(1),
            daemon: daemon,
            heads: [id(1): (42, 1_795_338_000_000), id(2): (17, 1_795_337_990_000)],
            madeAtMillis: 1_795_338_001_000
        )
    }

    static let answer = StatusAnswer(
        kioskName: "Hall A",
        kioskKey: id(1).hex,
        peers: ["\(id(2).hex)@10.0.0.2:7420"],
        peerDetails: [
            PeerDetail(
                key: id(2).hex,
                name: "Hall B",
                location: "North",
                address: "10.0.0.2:7420",
                lastSeenMillis: 1_795_338_000_500,
                behind: 0,
                ahead: 0,
                digestMatches: true
            )
        ],
        keyGeneration: 0,
        heardMillis: [id(2).hex: 1_795_338_000_500, id(3).hex: 1_795_337_000_000],
        fleet: [
            FleetStatus(
                KioskStatus(kiosk: id(1), printer: "none", freeDiskBytes: 1 << 30, signedMillis: 1_795_338_000_000)
            ),
            FleetStatus(
                KioskStatus(
                    kiosk: id(2),
                    printer: "badges: stopped (out of labels)",
                    freeDiskBytes: 2 << 30,
                    signedMillis: 1_795_337_999_000
                )
            ),
        ]
    )

    @Test func everyEnrolledKioskAppearsWithWhatThisOneKnows() {
        let report = Self.report(daemon: Self.answer)
        #expect(report.kiosks.map(\.name) == ["Hall A", "Annex", "Desk", "Hall B", "Laptop", "Lost"])
        let standing = Dictionary(uniqueKeysWithValues: report.kiosks.map { ($0.name, report.standing($0)) })
        #expect(standing["Hall A"] == "this kiosk")
        #expect(standing["Hall B"] == "in session, digest equal")
        #expect(standing["Annex"]?.hasPrefix("last heard ") == true)
        #expect(standing["Desk"] == "NOT HEARD since musterd started")
        #expect(standing["Lost"] == "REVOKED (its records through #12 kept)")
        let lines = report.lines()
        #expect(lines[0] == "Fleet: 5 enrolled kiosk(s), 1 in session with this one, 1 organizer device(s)")
        #expect(lines.contains { $0.contains("Hall A (Main)") && $0.contains("42 record(s) held here, newest ") })
        #expect(
            lines.contains { $0.contains("Desk") && $0.contains("0 record(s) held here") && !$0.contains("newest") }
        )
        #expect(lines.contains { $0.contains("muster 0.6.7, printer badges: stopped (out of labels), 2.0 GiB free") })
        #expect(lines.filter { $0.contains("no status heard (0.6.4 or earlier") }.count == 3, "Annex, Desk, Lost")
    }

    /// `muster lock` asks the fleet which enrolled kiosks cannot read the lock: by their status, or, with
    /// none, by what 0.6.4 read; a revoked kiosk and an organizer device are not asked.
    /// `muster badge replace` asks the same of kind 14: a kiosk with no status (0.6.4 cannot say it
    /// reads it) is named, one whose status lists it is not.
    @Test func aKindAKioskDoesNotReadIsNamed() {
        let report = Self.report(daemon: Self.answer)
        #expect(
            report.unreadable(kinds: [.badgeCode]) == [
                "Annex (no status: 0.6.4 or earlier) does not read badge-code deltas (kind 14)",
                "Desk (no status: 0.6.4 or earlier) does not read badge-code deltas (kind 14)",
            ]
        )
        #expect(report.unreadable(kinds: [.checkIn]).isEmpty)
    }

    /// Refused while a kiosk is named, unless forced: then a warning names it.
    @Test func whatAKioskCannotReadIsRefusedUnlessForced() throws {
        let named = ["Desk (no status: 0.6.4 or earlier) does not read ticket-types"]
        var warnings: [String] = []
        try FleetReport.require(readableBy: [], what: "this lock", otherwise: "x", force: false) { warnings.append($0) }
        let error = #expect(throws: ClientError.self) {
            try FleetReport.require(readableBy: named, what: "this lock", otherwise: "x", force: false) { _ in }
        }
        #expect(error?.message.contains("cannot read this lock: Desk (no status") == true)
        #expect(error?.message.contains("--force") == true)
        try FleetReport.require(readableBy: named, what: "this lock", otherwise: "x", force: true) {
            warnings.append($0)
        }
        #expect(warnings.count == 1 && warnings[0].contains("(--force): Desk"))
    }

    @Test func aLockFeatureAKioskDoesNotReadIsNamed() {
        var answer = Self.answer
        answer.fleet?[1].lockFeatures = ["door-rules-v1", "door-rules-v2"]
        let report = Self.report(daemon: answer)
        #expect(report.unreadable([]).isEmpty)
        #expect(report.unreadable(["door-rules-v2"]).isEmpty, "every version since the status reads it")
        #expect(
            report.unreadable(["door-rules-v1", "screen-language"])
                == ["Hall B (North) (muster 0.6.7) does not read screen-language"]
        )
        #expect(
            report.unreadable(["ticket-types"]) == [
                "Hall A (Main) (muster 0.6.7) does not read ticket-types",
                "Annex (no status: 0.6.4 or earlier) does not read ticket-types",
                "Desk (no status: 0.6.4 or earlier) does not read ticket-types",
                "Hall B (North) (muster 0.6.7) does not read ticket-types",
            ]
        )
    }

    @Test func withoutTheDaemonNothingIsClaimedOfSessionsOrHearing() {
        let report = Self.report(daemon: nil)
        #expect(report.kiosks.allSatisfy { !$0.thisKiosk && !$0.inSession && $0.lastHeardMillis == nil })
        #expect(
            report.kiosks.filter { $0.revokedThrough == nil }.allSatisfy {
                report.standing($0) == "unknown (musterd not running)"
            }
        )
    }
}
