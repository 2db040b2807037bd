import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Runs `body` against a fresh replica that has ingested the whole scenario log.
func withScenarioReplica(_ body: (Replica, ScenarioLog) throws -> Void) throws {
    try withScenarioLog { (log, replica, dir) throws in
        let report = try replica.ingestAtTestTime(log.all, nowMillis: log.now)
        #expect(report.rejected.isEmpty)
        try body(replica, log)
    }
}

// MARK: - The scenario log

/// A realistic day at one venue, signed with real keys: two campaigns, 30 imported attendees, a lock,
/// check-ins and check-outs at both kiosks (one attendee checked in at both, with equal timestamps),
/// walk-ins (one with an imported attendee's email, one new email registered at both kiosks),
/// notes, an organizer undo, an unlock and a higher relock, and a re-import that changes a company.
struct ScenarioLog {
    static let campaign = "devcon-2025"
    static let campaignName = "DevCon 2025"
    static let otherCampaign = "meetup-zh"
    static let otherCampaignName = "Swift Meetup Zürich"
    static let attendeeCount = 30
    static let newWalkInEmail = "new.person@example.com"

    static func email(_ index: Int) -> String { "First\(index).Last\(index)@Example.com" }
    static func key(_ index: Int) -> String { EmailAddress.key(email(index)) }
    static func ticket(_ index: Int) -> String { "T-\(1_000 + index)" }

    // Expected state of `campaign` once every delta is in.
    static let expectedAttendees = 31  // 30 imported + 1 new walk-in (the other walk-in is imported #20)
    /// Kiosk A: #0-4, #6-9 (#5 undone); kiosk B: #10-15 (#2 again); walk-ins: the new email and #20.
    static let expectedCheckedIn = 17
    /// The new email only: the registration of imported #20 checks her in but makes her no walk-in.
    static let expectedWalkIns = 1
    static let expectedInside = 16  // #1 checked out; #11 checked out and back in

    let venue: TestVenue
    /// Every delta in the order it was created.
    private(set) var all: [SignedDelta] = []
    /// The last moment of the day, for ingest's `nowMillis`.
    private(set) var now = TestTime.start

    /// Kiosk A's check-in of attendee #5, which the organizer undoes.
    private(set) var undoneCheckIn: DeltaRef!
    /// The organizer's undo of it.
    private(set) var undo: DeltaRef!
    /// Kiosk A's and kiosk B's check-ins of attendee #2, with identical timestamps.
    private(set) var tiedCheckIns: [DeltaRef] = []
    /// Kiosk A's walk-in ticket for the new email, and kiosk B's.
    let newWalkInTickets = ["W-0000AAAA", "W-0000BBBB"]
    /// Kiosk A's walk-in ticket for imported attendee #20, which finds nobody (the import outranks it).
    let importedWalkInTicket = "W-0000CCCC"

    private var signers: [AuthorID: DeltaSigner] = [:]
    private var clocks: [AuthorID: HybridClock] = [:]

    init(venue: TestVenue) {
        self.venue = venue
        for key in [venue.organizerKey, venue.kioskAKey, venue.kioskBKey] {
            signers[AuthorID(key.publicKey)] = venue.signer(key)
            clocks[AuthorID(key.publicKey)] = HybridClock()
        }
        build()
    }

    /// The deltas of one author, oldest first.
    func deltas(of author: AuthorID) -> [SignedDelta] { all.filter { $0.author == author } }

    var authors: [AuthorID] { [venue.organizer, venue.kioskA, venue.kioskB] }

    @discardableResult
    private mutating func emit(_ author: AuthorID, _ body: DeltaBody, at hlc: HLC? = nil) -> SignedDelta {
        now += 1_000
        let stamp: HLC
        if let hlc {
            clocks[author]!.observe(hlc, nowMillis: now)
            stamp = hlc
        } else {
            stamp = clocks[author]!.tick(nowMillis: now)
        }
        let delta: SignedDelta
        do {
            delta = try signers[author]!.sign(body, hlc: stamp)
        } catch {
            // The scenario's bodies are the test's own; one that cannot be signed is a broken test.
            preconditionFailure("scenario delta cannot be signed: \(error)")
        }
        all.append(delta)
        return delta
    }

    private mutating func build() {
        let org = venue.organizer
        let a = venue.kioskA
        let b = venue.kioskB
        let c = Self.campaign

        emit(org, .campaign(CampaignPayload(campaignID: c, name: Self.campaignName)))
        emit(org, .campaign(CampaignPayload(campaignID: Self.otherCampaign, name: Self.otherCampaignName)))
        for index in 0..<Self.attendeeCount {
            emit(
                org,
                Bodies.attendee(
                    c,
                    email: Self.email(index),
                    first: "First\(index)",
                    last: "Last\(index)",
                    company: "Company \(index % 7)",
                    ticket: Self.ticket(index),
                    admitted: index != 29
                )
            )
        }
        // Attendee #0 is also invited to the meetup, under another ticket.
        emit(
            org,
            Bodies.attendee(
                Self.otherCampaign,
                email: Self.email(0),
                first: "First0",
                last: "Last0",
                company: "Meetup Co",
                ticket: "M-0001"
            )
        )
        emit(org, .lock(LockPayload(version: 1, campaignID: c, checkInStatus: "Attended")))

        for index in [0, 1] { emit(a, Bodies.checkIn(c, Self.key(index), kiosk: "Kiosk A")) }
        // Both kiosks check in attendee #2 in the same millisecond.
        now += 1_000
        let tie = HLC(physicalMillis: now, logical: 0)
        tiedCheckIns.append(emit(a, Bodies.checkIn(c, Self.key(2), kiosk: "Kiosk A"), at: tie).ref)
        tiedCheckIns.append(emit(b, Bodies.checkIn(c, Self.key(2), kiosk: "Kiosk B"), at: tie).ref)
        for index in [3, 4] { emit(a, Bodies.checkIn(c, Self.key(index), kiosk: "Kiosk A")) }
        undoneCheckIn = emit(a, Bodies.checkIn(c, Self.key(5), kiosk: "Kiosk A")).ref
        for index in [10, 11, 12] { emit(b, Bodies.checkIn(c, Self.key(index), kiosk: "Kiosk B")) }
        emit(a, Bodies.checkIn(c, Self.key(6), kiosk: "Kiosk A"))
        emit(a, Bodies.checkOut(c, Self.key(1), kiosk: "Kiosk A"))
        emit(a, .note(NotePayload(campaignID: c, attendeeKey: Self.key(0), text: "Great keynote!")))
        emit(
            a,
            Bodies.registration(
                c,
                email: Self.newWalkInEmail,
                first: "New",
                last: "Person",
                company: "Early Co",
                ticket: newWalkInTickets[0],
                kiosk: "Kiosk A"
            )
        )
        emit(
            b,
            Bodies.registration(
                c,
                email: "New.Person@Example.COM",
                first: "Newton",
                last: "Person",
                company: "Later Co",
                ticket: newWalkInTickets[1],
                kiosk: "Kiosk B"
            )
        )
        emit(
            a,
            Bodies.registration(
                c,
                email: "FIRST20.last20@example.com",
                first: "Twenty",
                last: "Walkin",
                company: "WalkCo",
                ticket: importedWalkInTicket,
                kiosk: "Kiosk A"
            )
        )
        emit(b, Bodies.checkOut(c, Self.key(11), kiosk: "Kiosk B"))
        emit(b, Bodies.checkIn(c, Self.key(11), kiosk: "Kiosk B"))
        for index in [13, 14] { emit(b, Bodies.checkIn(c, Self.key(index), kiosk: "Kiosk B")) }
        emit(b, .note(NotePayload(campaignID: c, attendeeKey: Self.key(10), text: "Où est le café ? ☕️")))

        undo = emit(org, .undo(UndoPayload(target: undoneCheckIn))).ref
        emit(org, .lock(LockPayload(version: 2, campaignID: nil)))
        emit(
            org,
            .lock(
                LockPayload(
                    version: 3,
                    campaignID: c,
                    checkInStatus: "Responded",
                    opensAtMillis: Int64(TestTime.start),
                    closesAtMillis: Int64(TestTime.start + 12 * 3_600_000)
                )
            )
        )
        emit(
            org,
            Bodies.attendee(
                c,
                email: Self.email(3),
                first: "First3",
                last: "Last3",
                company: "Analytical Engines",
                ticket: Self.ticket(3)
            )
        )

        for index in [7, 8] { emit(a, Bodies.checkIn(c, Self.key(index), kiosk: "Kiosk A")) }
        emit(a, Bodies.checkIn(c, Self.key(9), kiosk: "Kiosk A"))  // kiosk A's last delta
        emit(b, Bodies.checkIn(c, Self.key(15), kiosk: "Kiosk B"))  // kiosk B's last delta
        now += 1_000
    }
}

// MARK: - Shuffles

enum Shuffle {
    /// Interleaves the authors' logs at random, keeping each author's deltas in seq order, taking
    /// runs of 1 to `maxRun` deltas from one author at a time.
    static func interleave(
        _ logs: [[SignedDelta]],
        maxRun: Int,
        using rng: inout some RandomNumberGenerator
    ) -> [SignedDelta] {
        var rest = logs.map { ArraySlice($0) }
        var out: [SignedDelta] = []
        while let pick = rest.indices.filter({ !rest[$0].isEmpty }).randomElement(using: &rng) {
            let take = Int.random(in: 1...maxRun, using: &rng)
            out += rest[pick].prefix(take)
            rest[pick] = rest[pick].dropFirst(take)
        }
        return out
    }

    /// Cuts a delivery order into batches of random size, each shuffled inside (ingest sorts a
    /// batch's runs by seq, so only the order *between* batches must respect each author's log).
    static func batches(
        _ deltas: [SignedDelta],
        maxBatch: Int,
        using rng: inout some RandomNumberGenerator
    ) -> [[SignedDelta]] {
        var rest = ArraySlice(deltas)
        var out: [[SignedDelta]] = []
        while !rest.isEmpty {
            let take = Int.random(in: 1...maxBatch, using: &rng)
            out.append(Array(rest.prefix(take)).shuffled(using: &rng))
            rest = rest.dropFirst(take)
        }
        return out
    }
}

extension SignedDelta {
    /// The same delta with one envelope byte changed (signature untouched).
    func flippingEnvelopeByte(at index: Int) throws -> SignedDelta {
        var bytes = envelope
        bytes[index] ^= 0x01
        return try SignedDelta(envelope: bytes, signature: signature)
    }

    /// The same envelope with one signature byte changed.
    func flippingSignatureByte(at index: Int) throws -> SignedDelta {
        var bytes = signature
        bytes[index] ^= 0x80
        return try SignedDelta(envelope: envelope, signature: bytes)
    }
}

/// Runs `body` with a fresh venue's scenario log and an empty replica (both kiosks enrolled) in a
/// fresh directory; the log's venue is `log.venue`.
func withScenarioLog(_ body: (ScenarioLog, Replica, String) throws -> Void) throws {
    try withTestReplica { venue, replica, dir in try body(ScenarioLog(venue: venue), replica, dir) }
}

extension Replica {
    /// Kiosk A's local write, stamped at the start of the test day.
    @discardableResult
    func appendAtTestStart<T>(
        _ venue: TestVenue,
        _ decide: (ReplicaView) throws -> LocalWrite<T>
    ) throws(ReplicaError) -> (result: T, delta: SignedDelta?) {
        try appendLocal(keyPair: venue.kioskAKey, nowMillis: TestTime.start, nextHLC: { _ in TestTime.at(0) }, decide)
    }
}
