import MusterCore
import Testing

@testable import MusterRules

/// Attendance as a pure function of the records (issue 36): the same minutes and statuses whatever
/// order the records arrive in, however often, and whichever part of them a partition delivered first.
@Suite("Attendance ledger")
struct AttendanceLedgerTests {
    static let minute: Int64 = 60_000
    static let t0: Int64 = 1_800_000_000_000
    static func door(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }

    static func session(_ id: String, start: Int64, minutes: Int64) -> SessionRecord {
        SessionRecord(
            payload: SessionPayload(
                id: id,
                name: id,
                zone: "Lab",
                startMillis: t0 + start * minute,
                endMillis: t0 + (start + minutes) * minute
            ),
            author: door(9),
            hlc: HLC(physicalMillis: 1, logical: 0),
            hostName: ""
        )
    }

    static func record(
        _ door: UInt8,
        _ seq: UInt64,
        at minutes: Int64,
        _ key: String,
        _ session: String,
        _ direction: AttendancePayload.Direction
    ) -> AttendanceRecord {
        AttendanceRecord(
            ref: DeltaRef(author: Self.door(door), seq: seq),
            hlc: HLC(physicalMillis: UInt64(t0 + minutes * minute), logical: 0),
            kioskName: "k\(door)",
            location: "Lab",
            sessionID: session,
            attendeeKey: key,
            direction: direction
        )
    }

    static let sessions = Dictionary(
        uniqueKeysWithValues: [session("a", start: 0, minutes: 60), session("b", start: 30, minutes: 60)].map {
            ($0.id, $0)
        }
    )

    @Test func minutesAndStatusesFollowTheRules() {
        let records = [
            Self.record(1, 1, at: -5, "p", "a", .entered),  // early: counted from the start
            Self.record(2, 1, at: 10, "p", "a", .entered),  // again while in: nothing
            Self.record(1, 2, at: 45, "p", "b", .entered),  // another session ends the first
            Self.record(2, 2, at: 70, "p", "b", .left),
        ]
        let lines = AttendanceLedger.lines(
            attendeeKey: "p",
            records: records,
            sessions: Self.sessions,
            registered: ["a"],
            nowMillis: Self.t0 + 200 * Self.minute
        )
        #expect(lines.map(\.minutes) == [45, 25])
        #expect(lines.map(\.status) == [.leftEarly, .late])
        #expect(lines[0].inMillis == Self.t0, "clamped to the start")
        #expect(lines[1].outMillis == Self.t0 + 70 * Self.minute)
        let absent = AttendanceLedger.lines(
            attendeeKey: "q",
            records: [],
            sessions: Self.sessions,
            registered: ["b"],
            nowMillis: Self.t0
        )
        #expect(absent.map(\.status) == [.absent])
        // Still in: counted up to now, no out, and current says where.
        let inside = [Self.record(1, 1, at: 35, "r", "b", .entered)]
        let now = Self.t0 + 50 * Self.minute
        let open = AttendanceLedger.lines(attendeeKey: "r", records: inside, sessions: Self.sessions, nowMillis: now)
        #expect(open.map(\.minutes) == [15] && open[0].outMillis == nil)
        #expect(AttendanceLedger.current(of: inside, sessions: Self.sessions, nowMillis: now) == "b")
        #expect(AttendanceLedger.current(of: inside, sessions: Self.sessions, nowMillis: now + 60 * Self.minute) == nil)
    }

    /// The property: any order, with duplicates, and any split into two deliveries gives the same lines.
    @Test func anyOrderAnyDuplicatesAnyPartitionGiveTheSameLines() {
        var generator = SplitMix64(seed: 36)
        for _ in 0..<300 {
            var records: [AttendanceRecord] = []
            var seqs: [UInt8: UInt64] = [:]
            for _ in 0..<Int(generator.next() % 12) {
                let door = UInt8(1 + generator.next() % 3)
                seqs[door, default: 0] += 1
                records.append(
                    Self.record(
                        door,
                        seqs[door]!,
                        at: Int64(generator.next() % 120) - 10,
                        "p",
                        generator.next() % 2 == 0 ? "a" : "b",
                        generator.next() % 3 == 0 ? .left : .entered
                    )
                )
            }
            let now = Self.t0 + 150 * Self.minute
            let expected = AttendanceLedger.lines(
                attendeeKey: "p",
                records: records,
                sessions: Self.sessions,
                nowMillis: now
            )
            var shuffled = records + records.filter { _ in generator.next() % 2 == 0 }
            shuffled.shuffle(using: &generator)
            #expect(
                AttendanceLedger.lines(attendeeKey: "p", records: shuffled, sessions: Self.sessions, nowMillis: now)
                    == expected
            )
            // A partition: one side's records arrive first, then the rest (a replica holds the union).
            let cut = records.isEmpty ? 0 : Int(generator.next() % UInt64(records.count))
            let healed = Array(records[cut...]) + Array(records[..<cut])
            #expect(
                AttendanceLedger.lines(attendeeKey: "p", records: healed, sessions: Self.sessions, nowMillis: now)
                    == expected
            )
            for line in expected {
                #expect(line.presentMillis <= 60 * Self.minute, "never more than the session lasts")
            }
        }
    }

    @Test func theSessionDoorChoosesByCodeZoneAndTime() {
        var spot = Self.session("spot-x", start: 0, minutes: 10)
        spot = SessionRecord(
            payload: {
                var p = spot.payload
                p.code = "123456"
                return p
            }(),
            author: spot.author,
            hlc: spot.hlc,
            hostName: "k1"
        )
        let all = Array(Self.sessions.values) + [spot]
        let now = Self.t0 + 5 * Self.minute
        #expect(
            SessionPolicy.choose(code: nil, zone: "Lab", sessions: all, nowMillis: now) == .session(Self.sessions["a"]!)
        )
        #expect(SessionPolicy.choose(code: "123456", zone: "Lab", sessions: all, nowMillis: now) == .session(spot))
        if case .refuse(let reason, _) = SessionPolicy.choose(
            code: "123456",
            zone: "Hall",
            sessions: all,
            nowMillis: now
        ) {
            #expect(reason == .wrongZone)
        } else {
            Issue.record("a code of another zone")
        }
        if case .refuse(let reason, _) = SessionPolicy.choose(
            code: "123456",
            zone: "Lab",
            sessions: all,
            nowMillis: now + 10 * Self.minute
        ) {
            #expect(reason == .spotClosed)
        } else {
            Issue.record("a closed spot")
        }
        if case .refuse(let reason, _) = SessionPolicy.choose(
            code: "654321",
            zone: "Lab",
            sessions: all,
            nowMillis: now
        ) {
            #expect(reason == .wrongCode)
        } else {
            Issue.record("a wrong code")
        }
        // Overlapping sessions: the one that started last (b at +30) is in the room.
        #expect(
            SessionPolicy.choose(code: nil, zone: "Lab", sessions: all, nowMillis: Self.t0 + 45 * Self.minute)
                == .session(Self.sessions["b"]!)
        )
    }

    @Test func aKioskWritesOnlySpotsOfItsOwn() throws {
        let organizer = Self.door(7)
        let kiosk = Self.door(3)
        let policy = VenuePolicy(venue: VenueID.random(), organizer: organizer)
        let ref = DeltaRef(author: kiosk, seq: 1)
        var spot = SessionPayload(
            id: SessionPayload.spotPrefix(kiosk) + "01",
            name: "Meeting",
            zone: "Lab",
            startMillis: 0,
            endMillis: 600_000,
            code: "031234"
        )
        try policy.checkSession(spot, author: kiosk, byOrganizer: false, ref: ref)
        var organizers = spot
        organizers.id = "s-swift"
        organizers.code = nil
        #expect(throws: DeltaRejection.self, "an organizer's session id") {
            try policy.checkSession(organizers, author: kiosk, byOrganizer: false, ref: ref)
        }
        var others = spot
        others.id = SessionPayload.spotPrefix(Self.door(4)) + "01"
        #expect(throws: DeltaRejection.self, "another kiosk's spot") {
            try policy.checkSession(others, author: kiosk, byOrganizer: false, ref: ref)
        }
        spot.endMillis = SessionPayload.maxSpotMillis + 1
        #expect(throws: DeltaRejection.self, "longer than four hours") {
            try policy.checkSession(spot, author: kiosk, byOrganizer: false, ref: ref)
        }
        #expect(throws: DeltaRejection.self, "the organizer never writes in a kiosk's space") {
            try policy.checkSession(spot, author: organizer, byOrganizer: true, ref: ref)
        }
        try policy.checkSession(organizers, author: organizer, byOrganizer: true, ref: ref)
    }

    @Test func spotCodesComeFromTheKiosksHundred() {
        let kiosks = (1...5).map { Self.door(UInt8($0)) }
        let prefixes = kiosks.map { SpotCode.prefix(of: $0, among: kiosks) }
        #expect(Set(prefixes).count == 5)
        var draws: [UInt32] = [1234, 1234, 42]
        let code = SpotCode.make(prefix: 3, taken: ["031234"]) { draws.removeFirst() }
        #expect(code == "030042", "a taken code is drawn again")
    }
}
