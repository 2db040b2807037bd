import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Issue 32 ("Trust holds"), truth 5: an enrolled kiosk that lies changes nothing it did not author.
/// Each test signs with a real kiosk key through the real encoders, feeds the replica as a peer
/// would, asserts the absence of every effect, then sends an honest delta and asserts it arrived.
@Suite("An enrolled kiosk that lies")
struct InsiderAttackTests {
    typealias K = KioskAttackTests

    static func walkInTicketRows(_ replica: Replica) throws -> Int {
        try replica.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM walk_in_ticket") ?? 0 }
    }

    static func lookup(_ replica: Replica, _ query: String) throws -> AttendeeRecord? {
        try replica.view { try $0.lookup(campaignID: K.c, query: query) }
    }

    // MARK: - A ticket code minted for an imported attendee

    /// A registration under Ada's own email (any case) with another name and ticket `W-EVIL0001`:
    /// it may check her in, but it adds no ticket and makes her no walk-in, in either order.
    @Test func aRegistrationForAnImportedAttendeeMintsNoTicket() throws {
        try K.attack(named: "import-first") { (setup, importFirst, dir) throws in
            var insider = setup.venue.signer(setup.venue.kioskAKey)
            let mint = try insider.sign(
                K.registration(email: "ADA@example.COM", first: "Eve", last: "Mallory", company: "Evil Corp"),
                at: 120_000
            )
            #expect(try importFirst.ingestAtTestTime([mint]).rejected.isEmpty)
            let registrationFirst = try setup.venue.openReplica(in: dir, named: "registration-first")
            #expect(try registrationFirst.ingestAtTestTime([mint]).rejected.isEmpty)
            #expect(try registrationFirst.ingestAtTestTime(setup.organizer).rejected.isEmpty)

            for replica in [importFirst, registrationFirst] {
                let ada = try #require(try K.ada(replica))
                #expect(ada.displayName == "Ada Lovelace")
                #expect(ada.email == "Ada@Example.com")
                #expect(ada.company == "Analytical Engines")
                #expect(ada.ticket == "T-1815")
                #expect(ada.walkInTickets.isEmpty)
                #expect(!ada.walkIn)
                #expect(ada.imported)
                #expect(try Self.walkInTicketRows(replica) == 0)
                #expect(try Self.lookup(replica, "W-EVIL0001") == nil)
                #expect(try Self.lookup(replica, "w-evil0001") == nil)
                #expect(try replica.status().walkIns == 0)
            }
            #expect(try importFirst.digest() == (try registrationFirst.digest()))

            // The rule survives a rebuild (a revocation recomputes the state from the log).
            try importFirst.writer().write { db in try Materializer.rebuild(db: db) }
            #expect(try Self.walkInTicketRows(importFirst) == 0)
            #expect(try importFirst.digest() == (try registrationFirst.digest()))

            // An honest walk-in sent after is applied, with its ticket.
            var honest = setup.venue.signer(setup.venue.kioskBKey)
            let grace = try honest.sign(
                Bodies.registration(
                    K.c,
                    email: "grace@example.com",
                    first: "Grace",
                    last: "Hopper",
                    company: "Navy",
                    ticket: "W-GRACE001",
                    kiosk: "Kiosk B"
                ),
                at: 180_000
            )
            for replica in [importFirst, registrationFirst] {
                #expect(try replica.ingestAtTestTime([grace]).applied == [grace])
                let found = try #require(try Self.lookup(replica, "W-GRACE001"))
                #expect(found.key == "grace@example.com")
                #expect(found.walkIn)
                #expect(found.walkInTickets == ["W-GRACE001"])
                #expect(try Self.lookup(replica, "W-EVIL0001") == nil)
            }
            #expect(try importFirst.digest() == (try registrationFirst.digest()))
        }
    }

    // MARK: - A walk-in's ticket code taken by another registration

    /// Grace registered at Kiosk B with ticket `W-GRACE001`. The insider (Kiosk A) registers Aaron with the
    /// same ticket code: his key sorts first, and the ticket used to find him, so Grace's ticket at the door
    /// checked Aaron in. A ticket code that names two people now finds nobody (the door sends them to staff,
    /// who find each by email), on every replica in either order; Grace's email still finds her.
    @Test func aTicketCodeTakenByAnotherRegistrationFindsNobody() throws {
        try K.attack(named: "ticket") { (setup, replica, dir) throws in
            var honest = setup.venue.signer(setup.venue.kioskBKey)
            let grace = try honest.sign(
                Bodies.registration(
                    K.c,
                    email: "grace@example.com",
                    first: "Grace",
                    last: "Hopper",
                    company: "Navy",
                    ticket: "W-GRACE001",
                    kiosk: "Kiosk B"
                ),
                at: 120_000
            )
            #expect(try replica.ingestAtTestTime([grace]).applied == [grace])
            #expect(try Self.lookup(replica, "W-GRACE001")?.key == "grace@example.com")
            var insider = setup.venue.signer(setup.venue.kioskAKey)
            let taker = try insider.sign(
                Bodies.registration(
                    K.c,
                    email: "aaron@example.com",
                    first: "Aaron",
                    last: "Taker",
                    company: "",
                    ticket: "w-grace001",
                    kiosk: "Kiosk A"
                ),
                at: 130_000
            )
            let takerFirst = try setup.replica(in: dir, named: "taker-first")
            #expect(try takerFirst.ingestAtTestTime([taker]).applied == [taker])
            #expect(try takerFirst.ingestAtTestTime([grace]).applied == [grace])
            #expect(try replica.ingestAtTestTime([taker]).applied == [taker])
            for held in [replica, takerFirst] {
                #expect(try Self.lookup(held, "W-GRACE001") == nil)
                #expect(try Self.lookup(held, "grace@example.com")?.key == "grace@example.com")
                #expect(try Self.lookup(held, "aaron@example.com")?.key == "aaron@example.com")
            }
            #expect(try replica.digest() == (try takerFirst.digest()))

            // A ticket of one person still finds her (an honest walk-in sent after).
            let linus = try honest.sign(
                Bodies.registration(
                    K.c,
                    email: "linus@example.com",
                    first: "Linus",
                    last: "Torvalds",
                    company: "",
                    ticket: "W-LINUS001",
                    kiosk: "Kiosk B"
                ),
                at: 180_000
            )
            #expect(try replica.ingestAtTestTime([linus]).applied == [linus])
            #expect(try Self.lookup(replica, "W-LINUS001")?.key == "linus@example.com")
        }
    }

    // MARK: - An attendee frozen inside

    /// After Ada's honest check-in at Kiosk B, the insider (Kiosk A) sends 17 more valid check-ins
    /// of her, more than a check-out can name one by one. Kiosk B's check-out, written as the daemon
    /// writes it, ends every one of them on every replica, whichever run arrives first, and her
    /// next check-in is admitted.
    @Test func aFloodOfCheckInsCannotOutlastACheckOut() throws {
        try K.attack(named: "door") { (setup, door, dir) throws in
            var honest = setup.venue.signer(setup.venue.kioskBKey)
            let arrival = try honest.sign(Bodies.checkIn(K.c, K.ada, kiosk: "Kiosk B"), at: 60_000)
            var insider = setup.venue.signer(setup.venue.kioskAKey)
            let flood = try (1...17).map { index in
                try insider.sign(K.checkIn(K.ada), at: 60_000 + UInt64(index) * 10)
            }
            #expect(try door.ingestAtTestTime([arrival]).applied == [arrival])
            #expect(try door.ingestAtTestTime(flood).applied == flood)
            let inside = try #require(try K.ada(door))
            #expect(inside.openArrivals.count == 18)

            let ends = DoorPolicy.checkOutEnds(inside.openArrivals, zone: "Hall B", rules: nil)
            let checkOut = try honest.sign(
                .checkOut(CheckOutPayload(Bodies.presence(K.c, K.ada, kiosk: "Kiosk B"), ends: ends)),
                at: 120_000
            )
            #expect(try door.ingestAtTestTime([checkOut]).applied == [checkOut])

            let floodFirst = try setup.replica(in: dir, named: "flood-first")
            #expect(try floodFirst.ingestAtTestTime(flood).applied == flood)
            #expect(try floodFirst.ingestAtTestTime([arrival, checkOut]).applied == [arrival, checkOut])
            let honestFirst = try setup.replica(in: dir, named: "honest-first")
            #expect(try honestFirst.ingestAtTestTime([arrival, checkOut]).applied == [arrival, checkOut])
            #expect(try honestFirst.ingestAtTestTime(flood).applied == flood)

            let replicas = [door, floodFirst, honestFirst]
            for replica in replicas {
                let ada = try #require(try K.ada(replica))
                #expect(ada.openArrivals.isEmpty)
                #expect(!ada.isInside)
                #expect(try replica.status().inside == 0)
                #expect(ada.isCheckedIn)  // her arrivals stay on record
            }
            #expect(Set(try replicas.map { try $0.digest() }).count == 1)

            // Her next check-in is admitted, and it arrives everywhere.
            let decision = try door.view { view in
                let ada = try #require(try view.lookup(campaignID: K.c, query: K.ada))
                return DoorPolicy.decide(
                    DoorAttempt(
                        lock: try view.lock(),
                        zone: "Hall B",
                        attendee: .init(
                            key: ada.key,
                            admitted: ada.admitted,
                            arrivals: try view.presences(campaignID: K.c, attendeeKey: ada.key).filter(\.isArrival),
                            openArrivals: ada.openArrivals
                        ),
                        insideZone: 0,
                        nowMillis: TestTime.start + 180_000,
                        dayStartMillis: 0
                    )
                )
            }
            #expect(decision == .admit(campaignID: K.c, memberStatus: "Attended", ends: []))
            let again = try honest.sign(Bodies.checkIn(K.c, K.ada, kiosk: "Kiosk B"), at: 180_000)
            for replica in replicas {
                #expect(try replica.ingestAtTestTime([again]).applied == [again])
                #expect(try K.ada(replica)?.openArrivals.map(\.ref) == [again.ref])
            }
        }
    }

    /// A reference ends its author's earlier arrivals only when it names an arrival of the same
    /// person: an insider's check-out naming a seq the honest kiosk has not written, or one of its
    /// check-ins of someone else, ends none of Ada's arrivals.
    @Test func aCheckOutNamingWhatIsNotHerArrivalEndsNothing() throws {
        try K.attack(named: "door") { (setup, door, dir) throws in
            var honest = setup.venue.signer(setup.venue.kioskBKey)
            let arrival = try honest.sign(Bodies.checkIn(K.c, K.ada, kiosk: "Kiosk B"), at: 60_000)
            let other = try honest.sign(Bodies.checkIn(K.c, "grace@example.com", kiosk: "Kiosk B"), at: 61_000)
            #expect(try door.ingestAtTestTime([arrival, other]).applied == [arrival, other])
            var insider = setup.venue.signer(setup.venue.kioskAKey)
            let presence = Bodies.presence(K.c, K.ada, kiosk: "Kiosk A")
            let future = DeltaRef(author: setup.venue.kioskB, seq: 1_000)
            let hostile = [
                try insider.sign(.checkOut(CheckOutPayload(presence, ends: [future])), at: 62_000),
                try insider.sign(.checkOut(CheckOutPayload(presence, ends: [other.ref])), at: 63_000),
            ]
            #expect(try door.ingestAtTestTime(hostile).applied == hostile)
            #expect(try K.ada(door)?.openArrivals.map(\.ref) == [arrival.ref])
            #expect(
                try door.view { try $0.openArrivals(campaignID: K.c, attendeeKey: "grace@example.com") }.map(\.ref) == [
                    other.ref
                ]
            )

            // The honest check-out still ends her arrival.
            let checkOut = try honest.sign(
                .checkOut(CheckOutPayload(Bodies.presence(K.c, K.ada, kiosk: "Kiosk B"), ends: [arrival.ref])),
                at: 64_000
            )
            #expect(try door.ingestAtTestTime([checkOut]).applied == [checkOut])
            #expect(try K.ada(door)?.isInside == false)
        }
    }

    // MARK: - Back-dated forgeries behind a watermark

    /// `muster revoke --before TIME`: a thief's stamps need only increase, so a check-in it sends
    /// after TIME can be stamped before it. What this replica received after TIME is beyond the
    /// watermark, whatever its stamp; what was stamped after TIME is too, whenever it came.
    @Test func aBackDatedDeltaReceivedAfterTheTimeIsBeyondTheWatermark() throws {
        try K.attack(named: "organizer") { (setup, replica, dir) throws in
            let kiosk = setup.venue.kioskA
            var thief = setup.venue.signer(setup.venue.kioskAKey)
            let honest = try (1...2).map { index in
                try thief.sign(K.checkIn("guest\(index)@example.com"), at: UInt64(index) * 1_000)
            }
            #expect(try replica.ingestAtTestTime(honest, nowMillis: TestTime.start + 3_000).applied == honest)
            // Stolen at +5 s; at +10 s it sends a check-in stamped +2.5 s.
            let forged = try thief.sign(K.checkIn("eve@example.com"), at: 2_500)
            #expect(try replica.ingestAtTestTime([forged], nowMillis: TestTime.start + 10_000).applied == [forged])

            #expect(try replica.lastSeq(of: kiosk, before: TestTime.start + 5_000) == 2)
            #expect(try replica.lastSeq(of: kiosk, before: TestTime.start + 4_000) == 2)
            // Seq 1 was stamped before +1.5 s but reached this replica at +3 s: it goes too.
            #expect(try replica.lastSeq(of: kiosk, before: TestTime.start + 1_500) == 0)
            #expect(try replica.lastSeq(of: kiosk, before: TestTime.start + 11_000) == 3)
            #expect(try replica.lastSeq(of: kiosk, before: TestTime.start) == 0)
        }
    }
}
