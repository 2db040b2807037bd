import Foundation
import MusterClient
import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// Sessions and check-in spots (issue 36) in the daemon's own paths, on kiosks that do not hear each
/// other, with an injected clock: kiosks 0 and 1 stand in the Lab, kiosk 2 in Hall A.
@Suite("Session doors and check-in spots")
struct SessionDoorTests {
    static let minute: Int64 = 60_000

    private func venue(attendees: Int = 4) throws -> DoorVenue {
        let v = try DoorVenue(zones: ["Lab", "Lab", "Hall A"])
        try v.setUp(attendees: attendees, rules: nil)
        return v
    }

    /// A session signed as `muster session add` signs it (doors from the roster when it has a capacity).
    private func schedule(
        _ v: DoorVenue,
        id: String = "s-swift",
        name: String = "Swift on Linux",
        startIn: Int64,
        minutes: Int64,
        capacity: UInt32? = nil,
        registeredOnly: Bool = false
    ) throws -> SessionPayload {
        let start = Int64(v.clock.wallMillis) + startIn
        let doors = ZoneDoors(roster: try v.kiosks[0].replica.roster()).byLocation["Lab"] ?? []
        let session = SessionPayload(
            id: id,
            name: name,
            zone: "Lab",
            startMillis: start,
            endMillis: start + minutes * Self.minute,
            capacity: capacity,
            registeredOnly: registeredOnly,
            doors: capacity == nil ? [] : doors
        )
        try v.organize([.session(session)])
        return session
    }

    private func attend(_ v: DoorVenue, _ kiosk: Int, _ query: String, code: String? = nil) -> ControlResponse {
        v.kiosks[kiosk].handler.handle(.attend(query: query, code: code))
    }

    /// The attendance export of one kiosk's replica at `now`, as `muster export sessions` writes it.
    private func export(_ v: DoorVenue, _ kiosk: Int, now: Int64) throws -> String {
        let lines = try v.kiosks[kiosk].replica.view { view in
            SessionAttendance.lines(
                sessions: try view.sessionsByID(),
                records: try view.attendance(campaignID: v.campaignID),
                registrations: try view.registrations(campaignID: v.campaignID),
                attendees: Dictionary(
                    try view.attendees(campaignID: v.campaignID).map { ($0.key, $0) },
                    uniquingKeysWith: { a, _ in a }
                ),
                nowMillis: now
            )
        }
        return Exporter.sessions(lines)
    }

    @Test func aScheduledSessionOpensAndClosesAtItsTimesAndCountsMinutesOnEveryKiosk() throws {
        let v = try venue()
        let session = try schedule(v, startIn: 5 * Self.minute, minutes: 60, registeredOnly: true)
        try v.organize([
            .sessionRegistration(
                SessionRegistrationPayload(sessionID: session.id, campaignID: v.campaignID, attendeeKeys: ["a0@x.org"])
            )
        ])
        // Before its start the Lab's doors refuse, and a plain check-in there is attendance too.
        #expect(v.scan(0, "a0@x.org").reason == "no_session_now")
        // The Hall has no schedule: its door is an entry door as before.
        #expect(v.scan(2, "a1@x.org").outcome == .checkedIn)
        v.clock.advance(by: .milliseconds(7 * Self.minute))
        guard case .attended(let entered) = v.scan(0, "a0@x.org") else {
            Issue.record("not attended")
            return
        }
        #expect(entered.direction == .entered)
        #expect(entered.session == "Swift on Linux")
        #expect(attend(v, 1, "a1@x.org").reason == "not_registered", "registered only")
        // The Lab's doors hear each other; the Hall is cut off for the whole session.
        try v.sync(from: v.kiosks[0], to: v.kiosks[1])
        v.clock.advance(by: .milliseconds(45 * Self.minute))
        guard case .attended(let left) = attend(v, 1, "a0@x.org") else {
            Issue.record("not left")
            return
        }
        #expect(left.direction == .left, "a second scan, at the other Lab door, is a leave")
        v.clock.advance(by: .milliseconds(20 * Self.minute))
        #expect(v.scan(0, "a2@x.org").reason == "no_session_now", "closed at its end")
        // Healed: the Hall holds what the Lab did, and every kiosk exports the same minutes.
        try v.syncAll()
        let now = Int64(v.clock.wallMillis)
        let hall = try export(v, 2, now: now)
        #expect(hall == (try export(v, 0, now: now)))
        #expect(hall == (try export(v, 1, now: now)))
        #expect(hall.contains(",45,left_early"), "in at start + 2 min, out 45 min later, 13 before the end:\n\(hall)")
        #expect(try v.kiosks[2].replica.digest() == (try v.kiosks[0].replica.digest()))
    }

    @Test func aLateArrivalAndAnEarlyLeaveAreSaidSoAndAnotherSessionEndsTheFirst() throws {
        let v = try venue()
        _ = try schedule(v, id: "s-a", name: "A", startIn: 0, minutes: 60)
        #expect(attend(v, 0, "a0@x.org").outcome == .attended)
        v.clock.advance(by: .milliseconds(15 * Self.minute))
        #expect(attend(v, 0, "a1@x.org").outcome == .attended, "15 minutes after the start: late")
        v.clock.advance(by: .milliseconds(5 * Self.minute))
        // A second session in the Lab starts now: the Lab's doors take scans for it, so a0 enters it,
        // which ends their presence in A after 20 minutes.
        _ = try schedule(v, id: "s-b", name: "B", startIn: 0, minutes: 30)
        #expect(attend(v, 1, "a0@x.org").outcome == .attended)
        try v.syncAll()
        let csv = try export(v, 0, now: Int64(v.clock.wallMillis) + 90 * Self.minute)
        #expect(csv.contains("A,Lab") && csv.contains(",20,left_early"), "\(csv)")
        #expect(csv.contains(",45,late"), "a1 stayed to A's end: 45 minutes, late\n\(csv)")
        #expect(csv.contains(",30,present"), "a0 in B from its start to its end\n\(csv)")
    }

    @Test func aCapacityIsSplitOverTheRoomsDoorsSoItHoldsWhileTheyAreCutOff() throws {
        let v = try venue(attendees: 6)
        _ = try schedule(v, startIn: 0, minutes: 60, capacity: 3)
        // Three places over two doors: the lower-ranked door holds two, the other one.
        var admitted = 0
        for index in 0..<6 where attend(v, index % 2, "a\(index)@x.org").outcome == .attended { admitted += 1 }
        #expect(admitted == 3)
        #expect(attend(v, 0, "a4@x.org").reason == "session_full" || attend(v, 1, "a5@x.org").reason == "session_full")
        // Someone a full door let in leaves and comes back: their seat is still theirs.
        #expect(attend(v, 0, "a0@x.org").outcome == .attended, "a0 leaves")
        #expect(attend(v, 0, "a0@x.org").outcome == .attended, "a0 comes back through the full door")
        try v.syncAll()
        let counts = try v.kiosks.map { kiosk in try kiosk.replica.view { try $0.admitted(sessionID: "s-swift") } }
        #expect(counts == [3, 3, 3], "the same count on every kiosk, never over the capacity")
    }

    @Test func aSpotsCodeWorksInItsZoneOnlyAndOnlyUntilItCloses() throws {
        let v = try venue()
        guard case .spotOpened(let spot) = v.kiosks[0].handler.handle(.openSpot(name: "Lab meeting", seconds: 120))
        else {
            Issue.record("no spot")
            return
        }
        #expect(SessionPayload.isSpotCode(spot.code))
        #expect(spot.zone == "Lab")
        try v.syncAll()
        #expect(attend(v, 1, "a0@x.org", code: spot.code).outcome == .attended, "the other Lab kiosk")
        #expect(attend(v, 2, "a1@x.org", code: spot.code).reason == "wrong_zone", "Hall A")
        let wrong = spot.code == "000000" ? "000001" : "000000"
        #expect(attend(v, 1, "a1@x.org", code: wrong).reason == "wrong_code")
        v.clock.advance(by: .milliseconds(121_000))
        #expect(attend(v, 1, "a2@x.org", code: spot.code).reason == "spot_closed")
        // Without a code the Lab (no schedule) has no session now.
        #expect(attend(v, 1, "a2@x.org").reason == "no_session_now")
    }

    @Test func twoSpotsOpenedAtOnceOnKiosksCutOffFromEachOtherNeverShareACode() throws {
        for _ in 0..<20 {
            let v = try venue(attendees: 1)
            guard case .spotOpened(let first) = v.kiosks[0].handler.handle(.openSpot(name: "One", seconds: 600)),
                case .spotOpened(let second) = v.kiosks[1].handler.handle(.openSpot(name: "Two", seconds: 600))
            else {
                Issue.record("no spots")
                return
            }
            #expect(first.code.prefix(2) != second.code.prefix(2), "each kiosk draws from its own hundred")
            #expect(first.code != second.code)
            #expect(first.sessionID != second.sessionID)
        }
    }

    @Test func theScreenIsToldTheSessionAndItsEndButNeverWhoElseIsIn() throws {
        let v = try venue()
        let session = try schedule(v, startIn: 0, minutes: 30)
        guard case .screen(let context) = v.kiosks[0].handler.handle(.screen) else {
            Issue.record("no context")
            return
        }
        #expect(context.sessionDoor)
        #expect(context.session == "Swift on Linux")
        #expect(context.sessionUntilMillis == session.endMillis)
        let answer = ScreenAnswer(attend(v, 0, "a0@x.org"), handles: .random())
        guard case .attended(let attendee, let name, .entered) = answer else {
            Issue.record("not attended: \(answer)")
            return
        }
        #expect(name == "Swift on Linux")
        #expect(attendee.firstName == "A")
        let line = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        #expect(!line.contains("a0@x.org") && !line.contains("k1"), "\(line)")
    }
}

/// A kiosk key holder, with the real signing and the store's own ingest, tries to change what only the
/// organizer may: the schedule, another kiosk's spot, a spot longer than four hours.
@Suite("Sessions under attack")
struct SessionAttackTests {
    @Test func aKioskKeyCannotMoveTheOrganizersSessionOrAnotherKiosksSpot() throws {
        let v = try DoorVenue(zones: ["Lab", "Lab", "Hall A"])
        try v.setUp(attendees: 2, rules: nil)
        let start = Int64(v.clock.wallMillis)
        let session = SessionPayload(
            id: "s-swift",
            name: "Swift",
            zone: "Lab",
            startMillis: start,
            endMillis: start + 3_600_000
        )
        try v.organize([.session(session)])
        guard case .spotOpened(let spot) = v.kiosks[1].handler.handle(.openSpot(name: "Two's spot", seconds: 600))
        else {
            Issue.record("no spot")
            return
        }
        try v.syncAll()
        let before = try v.kiosks[2].replica.digest()
        let attacker = v.kiosks[0]
        var moved = session
        moved.startMillis += 86_400_000
        moved.endMillis += 86_400_000
        var stolen = SessionPayload(
            id: spot.sessionID,
            name: "Mine",
            zone: "Hall A",
            startMillis: start,
            endMillis: start + 1
        )
        stolen.code = spot.code
        let endless = SessionPayload(
            id: SessionPayload.spotPrefix(attacker.author) + "ff",
            name: "Forever",
            zone: "Lab",
            startMillis: start,
            endMillis: start + SessionPayload.maxSpotMillis + 1,
            code: "123456"
        )
        for hostile in [moved, stolen, endless] {
            var signer = DeltaSigner(
                venue: v.venue,
                keyPair: attacker.key,
                head: try attacker.replica.head(of: attacker.author)
            )
            let signed = try signer.sign(
                .session(hostile),
                hlc: HLC(physicalMillis: v.clock.wallMillis + 1, logical: 0)
            )
            let report = try v.kiosks[2].replica.ingest(
                [signed],
                nowMillis: v.clock.wallMillis,
                clockBoundMillis: 300_000
            )
            #expect(report.rejected.count == 1, "\(hostile.id)")
            #expect(report.rejected.first?.code == .notAuthorized)
        }
        #expect(try v.kiosks[2].replica.digest() == before, "nothing of them stored")
        let held = try v.kiosks[2].replica.view { try $0.sessionsByID() }
        #expect(held["s-swift"]?.payload == session)
        #expect(held[spot.sessionID]?.payload.zone == "Lab")
        // An honest delta after the hostile ones arrives: the session door still works there.
        #expect(v.kiosks[1].handler.handle(.attend(query: "a0@x.org", code: nil)).outcome == .attended)
        try v.sync(from: v.kiosks[1], to: v.kiosks[2])
        #expect(try v.kiosks[2].replica.digest() != before, "the honest attendance arrived")
    }
}

/// The property behind the export (issue 36): whatever partitions a venue went through and in whatever
/// order its kiosks then heard each other, with deltas offered again and again, every kiosk ends with
/// the same minutes, statuses and session counts, and no room held more than its capacity.
@Suite("Sessions converge")
struct SessionConvergenceTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func partitionsAndReorderingGiveTheSameAttendanceEverywhere(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let v = try DoorVenue(zones: ["Lab", "Lab", "Lab", "Hall A"])
        try v.setUp(attendees: 12, rules: nil)
        let start = Int64(v.clock.wallMillis)
        let doors = ZoneDoors(roster: try v.kiosks[0].replica.roster()).byLocation["Lab"] ?? []
        let sessions = [
            SessionPayload(
                id: "s-a",
                name: "A",
                zone: "Lab",
                startMillis: start,
                endMillis: start + 40 * 60_000,
                capacity: 5,
                doors: doors
            ),
            SessionPayload(
                id: "s-b",
                name: "B",
                zone: "Lab",
                startMillis: start + 30 * 60_000,
                endMillis: start + 90 * 60_000
            ),
        ]
        try v.organize(sessions.map { .session($0) })
        for _ in 0..<60 {
            v.clock.advance(by: .milliseconds(Int64(random.next() % 120_000)))
            let kiosk = Int(random.next() % 3)
            _ = v.kiosks[kiosk].handler.handle(.attend(query: "a\(random.next() % 12)@x.org", code: nil))
            // Now and then two kiosks hear each other one way (a partition heals only partly).
            if random.next() % 4 == 0 {
                let from = Int(random.next() % 4)
                let to = Int(random.next() % 4)
                if from != to { try v.sync(from: v.kiosks[from], to: v.kiosks[to]) }
            }
        }
        // Healed, in a random order, each pair offered twice (the second offer holds only copies).
        var pairs = (0..<4).flatMap { a in (0..<4).filter { $0 != a }.map { (a, $0) } }
        pairs += pairs
        pairs.shuffle(using: &random)
        for (from, to) in pairs { try v.sync(from: v.kiosks[from], to: v.kiosks[to]) }
        try v.syncAll()
        let now = Int64(v.clock.wallMillis) + 3 * 3_600_000
        let figures = try v.kiosks.map { kiosk in
            try kiosk.replica.view { view -> (String, [Int]) in
                let lines = SessionAttendance.lines(
                    sessions: try view.sessionsByID(),
                    records: try view.attendance(campaignID: v.campaignID),
                    registrations: try view.registrations(campaignID: v.campaignID),
                    attendees: [:],
                    nowMillis: now
                )
                return (
                    Exporter.sessions(lines),
                    [try view.admitted(sessionID: "s-a"), try view.admitted(sessionID: "s-b")]
                )
            }
        }
        #expect(Set(figures.map(\.0)).count == 1, "the same export on every kiosk")
        #expect(Set(figures.map(\.1)).count == 1, "the same counts on every kiosk")
        #expect(figures[0].1[0] <= 5, "never over A's capacity: \(figures[0].1)")
        #expect(Set(try v.kiosks.map { try $0.replica.digest() }).count == 1)
    }
}
