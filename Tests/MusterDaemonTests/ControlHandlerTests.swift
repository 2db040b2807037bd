import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterTestSupport
import Synchronization
import Testing

@testable import MusterDaemon
@testable import MusterRules

@Suite("ControlHandler")
struct ControlHandlerTests {
    // MARK: - No lock

    @Test func checkInBeforeAnyLockIsRefused() throws {
        let f = try HandlerFixture()
        let response = f.request(.checkIn, query: "ada.lovelace@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("waiting for the organizer") == true)
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func importWithoutLockStillRefuses() throws {
        let f = try HandlerFixture()
        try f.submit([
            .campaign(CampaignPayload(campaignID: f.campaignID, name: "DevConf")),
            Bodies.attendee(f.campaignID, email: "grace@example.com", first: "Grace", last: "Hopper"),
        ])
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .refused)
        #expect(f.request(.checkOut, query: "grace@example.com").outcome == .refused)
        #expect(f.register(first: "Walk", last: "In", email: "walk@example.com").outcome == .refused)
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func unlockAfterLockRefusesAgain() throws {
        let f = try HandlerFixture.importedAndLocked()
        #expect(try f.submit([.lock(LockPayload(version: 2, campaignID: nil))]).outcome == .submitted)
        let response = f.request(.checkIn, query: "grace@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("waiting") == true)
    }

    // MARK: - Check-in

    @Test func checkInByEmailThenAgainIsAlreadyCheckedIn() throws {
        let f = try HandlerFixture(name: "Hall A", location: "Main entrance")
        try f.importAndLock(status: "Attended")

        let first = f.request(.checkIn, query: "  ADA.Lovelace@example.com ")
        #expect(first.outcome == .checkedIn)
        let attendee = try #require(first.attendee)
        #expect(attendee.key == "ada.lovelace@example.com")
        #expect(attendee.firstName == "Ada")
        #expect(attendee.lastName == "Lovelace")
        #expect(attendee.company == "Analytical")
        #expect(attendee.ticket == "MUS-0001")
        #expect(attendee.campaignID == f.campaignID)
        #expect(
            first.checkIn
                == PresenceSummary(atMillis: HandlerFixture.now, kioskName: "Hall A", location: "Main entrance")
        )

        // Durable before the answer: the replica already shows the check-in.
        let record = try #require(try f.attendeeRecord("ada.lovelace@example.com"))
        #expect(record.isInside)
        #expect(record.firstArrival?.memberStatus == "Attended")
        #expect(record.firstArrival?.kioskName == "Hall A")
        #expect(try f.deltaCount(of: f.handler.author) == 1)

        let again = f.request(.checkIn, query: "ada.lovelace@example.com")
        #expect(again.outcome == .alreadyCheckedIn)
        #expect(again.checkIn?.kioskName == "Hall A")
        #expect(again.checkIn?.atMillis == HandlerFixture.now)
        #expect(again.attendee?.key == "ada.lovelace@example.com")
        #expect(try f.deltaCount(of: f.handler.author) == 1, "a repeated check-in appends nothing")
    }

    @Test func alreadyCheckedInElsewhereNamesTheFirstKiosk() throws {
        let f = try HandlerFixture(name: "Hall A", location: "North door")
        try f.importAndLock()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)

        // A second kiosk on the same replica (as after sync).
        var config = f.handler.config
        config.name = "Hall B"
        config.location = "South door"
        let other = ControlHandler(
            replica: f.replica,
            keyPair: try SigningKeyPair.generate(),
            config: config,
            clock: HybridLogicalClock(physical: { HandlerFixture.now + 120_000 }),
            logger: TestSupport.quietLogger
        )
        let request = ControlRequest.checkIn(query: "MUS-0002")
        let response = other.handle(request)
        #expect(response.outcome == .alreadyCheckedIn)
        #expect(
            response.checkIn
                == PresenceSummary(atMillis: HandlerFixture.now, kioskName: "Hall A", location: "North door")
        )
        #expect(try f.deltaCount(of: other.author) == 0)
    }

    @Test func checkInByTicketCodeIgnoresCaseAndSpace() throws {
        let f = try HandlerFixture.importedAndLocked()
        let response = f.request(.checkIn, query: " mus-0002\t")
        #expect(response.outcome == .checkedIn)
        #expect(response.attendee?.firstName == "Grace")
    }

    @Test func unknownQueryIsNotFoundAndNeverAPrefixMatch() throws {
        let f = try HandlerFixture.importedAndLocked()
        for query in ["nobody@example.com", "ada", "ada.lovelace@", "MUS-000", "%", "_", "*"] {
            let response = f.request(.checkIn, query: query)
            #expect(response.outcome == .notFound, "\(query)")
            #expect(response.attendee == nil)
        }
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func notAdmittedAttendeeIsRefused() throws {
        let f = try HandlerFixture.importedAndLocked()
        let response = f.request(.checkIn, query: "refunded@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("staff desk") == true)
        #expect(response.attendee?.firstName == "Rita")
        #expect(try f.attendeeRecord("refunded@example.com")?.isCheckedIn == false)
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func missingQueryIsAnError() throws {
        let f = try HandlerFixture.importedAndLocked()
        for line in [#"{"op":"checkin"}"#, #"{"op":"checkin","query":""}"#, #"{"op":"checkin","query":"   "}"#] {
            let response = f.answer(line: line)
            #expect(response.outcome == .error)
            #expect(response.message == "missing query")
        }
    }

    @Test func checkOutThenReEntry() throws {
        let f = try HandlerFixture.importedAndLocked()
        let early = f.request(.checkOut, query: "grace@example.com")
        #expect(early.outcome == .notCheckedIn, "\(early.message ?? "")")
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)

        let out = f.request(.checkOut, query: "GRACE@example.com")
        #expect(out.outcome == .checkedOut)
        #expect(out.attendee?.key == "grace@example.com")
        var record = try #require(try f.attendeeRecord("grace@example.com"))
        #expect(!record.isInside)
        #expect(record.isCheckedIn, "a check-out does not erase the check-in")
        #expect(f.request(.checkOut, query: "grace@example.com").outcome == .notCheckedIn)

        let back = f.request(.checkIn, query: "grace@example.com")
        #expect(back.outcome == .checkedIn)
        record = try #require(try f.attendeeRecord("grace@example.com"))
        #expect(record.isInside)
        #expect(
            try f.replica.view { try $0.presences(campaignID: f.campaignID, attendeeKey: "grace@example.com") }
                .map(\.kind) == [.checkIn, .checkOut, .checkIn]
        )
        #expect(f.request(.checkOut, query: "nobody@example.com").outcome == .notFound)
    }

    // MARK: - Walk-ins

    @Test func walkInRegistrationThenTicketCheckIn() throws {
        let f = try HandlerFixture(name: "Hall A")
        try f.importAndLock(status: "Attended")
        let response = f.register(
            first: " Linus ",
            last: "Walker",
            email: " Linus@Walkin.example ",
            company: "Kernel Co"
        )
        #expect(response.outcome == .registered)
        let ticket = try #require(response.ticket)
        #expect(ticket.hasPrefix("W-"))
        #expect(ticket.count == 10)
        #expect(response.attendee?.key == "linus@walkin.example")
        #expect(response.attendee?.firstName == "Linus")
        #expect(response.attendee?.ticket == ticket)
        #expect(response.checkIn?.kioskName == "Hall A")

        let record = try #require(try f.attendeeRecord("linus@walkin.example"))
        #expect(record.walkIn)
        #expect(!record.imported)
        #expect(record.walkInTickets == [ticket])
        #expect(record.email == "Linus@Walkin.example")
        #expect(record.isInside)
        #expect(record.firstArrival?.kind == .registration)
        #expect(record.firstArrival?.memberStatus == "Attended")

        let byTicket = f.request(.checkIn, query: ticket.lowercased())
        #expect(byTicket.outcome == .alreadyCheckedIn)
        #expect(byTicket.checkIn?.kioskName == "Hall A")
        #expect(byTicket.attendee?.ticket == ticket)

        // Registering again with the same email is the same person, not a second walk-in.
        let twice = f.register(first: "Linus", last: "Walker", email: "linus@walkin.example")
        #expect(twice.outcome == .alreadyCheckedIn)
        #expect(twice.ticket == nil)
        #expect(try f.attendeeRecord("linus@walkin.example")?.walkInTickets == [ticket])
        #expect(try f.replica.status().walkIns == 1)
    }

    @Test func registeringAnImportedEmailChecksThatAttendeeIn() throws {
        let f = try HandlerFixture.importedAndLocked()
        let response = f.register(first: "G.", last: "H.", email: "GRACE@example.com", company: "Navy")
        #expect(response.outcome == .checkedIn)
        #expect(response.ticket == nil)
        #expect(response.attendee?.firstName == "Grace", "the imported record is shown, not the typed names")
        #expect(response.message?.contains("already registered") == true)

        let record = try #require(try f.attendeeRecord("grace@example.com"))
        #expect(record.imported)
        #expect(!record.walkIn, "an imported attendee is not a new lead")
        #expect(record.walkInTickets.isEmpty)
        #expect(record.firstName == "Grace")
        #expect(record.isInside)
        #expect(record.firstArrival?.kind == .checkIn)
        #expect(try f.replica.status().walkIns == 0)

        #expect(f.register(first: "G", last: "H", email: "grace@example.com").outcome == .alreadyCheckedIn)
    }

    /// An address typed or scanned with a byte-order mark or a zero-width space at its end is the address:
    /// the walk-in is registered under it, with the same key an import of it makes (``EdgeTrim``).
    @Test func aStrayMarkAtTheEndOfATypedEmailIsNoPartOfIt() throws {
        let f = try HandlerFixture.importedAndLocked()
        let response = f.register(first: "Ann", last: "Mark", email: "\u{FEFF}Ann.Mark@walkin.example\u{200B}")
        #expect(response.outcome == .registered)
        let record = try #require(try f.attendeeRecord("ann.mark@walkin.example"))
        #expect(record.email == "Ann.Mark@walkin.example")
        #expect(f.register(first: "G", last: "H", email: "grace@example.com\u{200B}").outcome == .checkedIn)
    }

    /// Re-entry through the registration form: the answer should describe the check-in just made
    /// (here, now), as a plain re-entry check-in does, not the first one of the morning.
    @Test func registeringAgainAfterCheckOutReportsTheNewCheckIn() throws {
        let f = try HandlerFixture(name: "Hall A")
        try f.importAndLock()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        #expect(f.request(.checkOut, query: "grace@example.com").outcome == .checkedOut)

        var config = f.handler.config
        config.name = "Hall B"
        let later = HandlerFixture.now + 2 * 3_600_000
        let other = ControlHandler(
            replica: f.replica,
            keyPair: try SigningKeyPair.generate(),
            config: config,
            clock: HybridLogicalClock(physical: { later }),
            logger: TestSupport.quietLogger
        )
        let request = ControlRequest.register(
            WalkInRegistration(firstName: "Grace", lastName: "Hopper", email: "grace@example.com")
        )
        let response = other.handle(request)
        #expect(response.outcome == .checkedIn)
        #expect(try f.attendeeRecord("grace@example.com")?.isInside == true)
        #expect(response.checkIn?.kioskName == "Hall B")
        #expect(response.checkIn?.atMillis == later)
        // The plain check-in path gets this right.
        let checkOut = ControlRequest.checkOut(query: "grace@example.com")
        #expect(other.handle(checkOut).outcome == .checkedOut)
        let checkIn = ControlRequest.checkIn(query: "grace@example.com")
        let plain = other.handle(checkIn)
        #expect(plain.checkIn == PresenceSummary(atMillis: later, kioskName: "Hall B", location: config.location))
    }

    /// Kiosk B's clock runs 10 minutes ahead (beyond the 5-minute bound, so it does not move this
    /// kiosk's clock). Grace checked in at B; she now checks out here. The check-out is acknowledged,
    /// so it must take effect.
    @Test func checkOutHereSupersedesACheckInStampedAheadElsewhere() throws {
        let f = try HandlerFixture(name: "Hall A")
        try f.importAndLock()
        let kioskB = try SigningKeyPair.generate()
        var signer = DeltaSigner(venue: f.venue, startingLogOf: kioskB)
        let ahead = try signer.sign(
            .checkIn(
                CheckInPayload(
                    PresencePayload(
                        campaignID: f.campaignID,
                        attendeeKey: "grace@example.com",
                        kioskName: "Hall B",
                        location: "",
                        memberStatus: "Attended"
                    )
                )
            ),
            hlc: HLC(physicalMillis: HandlerFixture.now + 600_000, logical: 0)
        )
        // What the sync layer does with a peer's certificate and deltas.
        try f.enrollPeer(kioskB, name: "Hall B", atMillis: HandlerFixture.now)
        let report = try f.replica.ingest(
            [ahead],
            nowMillis: HandlerFixture.now,
            clockBoundMillis: f.handler.clock.boundMillis
        )
        #expect(report.applied.count == 1)
        #expect(report.clockWarnings == [ahead.ref])
        if let hlc = report.newestAcceptedHLC { f.handler.clock.observe(hlc) }

        let response = f.request(.checkOut, query: "grace@example.com")
        #expect(response.outcome == .checkedOut)
        let inside = try f.attendeeRecord("grace@example.com")?.isInside
        let again = f.request(.checkIn, query: "grace@example.com").outcome
        #expect(inside == false)
        #expect(again == .checkedIn)
    }

    @Test func registeringARefundedEmailIsRefused() throws {
        let f = try HandlerFixture.importedAndLocked()
        let response = f.register(first: "Rita", last: "Refund", email: "refunded@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("staff desk") == true)
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func registrationValidatesFields() throws {
        let f = try HandlerFixture.importedAndLocked()
        let noFirst = f.register(first: "  ", last: "X", email: "x@example.com")
        #expect(noFirst.outcome == .error)
        #expect(noFirst.message?.contains("first and last name") == true)
        #expect(f.register(first: "A", last: "", email: "x@example.com").outcome == .error)
        for email in ["not-an-email", "a@b@c", "", "a b@example.com", "x\u{1B}[2J@example.com"] {
            let response = f.register(first: "A", last: "B", email: email)
            #expect(response.outcome == .error, "\(email)")
            #expect(response.message?.unicodeScalars.contains { $0.value == 0x1B } == false)
        }
        // Names are sanitized before they are stored.
        let dirty = f.register(first: "Eve\u{1B}[2J", last: "Mal\u{202E}lory\u{07}", email: "eve@example.com")
        #expect(dirty.outcome == .registered)
        let record = try #require(try f.attendeeRecord("eve@example.com"))
        // Whole escape sequences go, not just the ESC, and bidi overrides and BEL with them.
        #expect(record.firstName == "Eve")
        #expect(record.lastName == "Mallory")
        #expect(try f.deltaCount(of: f.handler.author) == 1)
    }

    // MARK: - Notes

    @Test func noteOnlyAfterCheckIn() throws {
        let f = try HandlerFixture.importedAndLocked()
        let refused = f.note(key: "grace@example.com", text: "hello")
        #expect(refused.outcome == .refused)
        #expect(f.note(key: "nobody@example.com", text: "hello").outcome == .refused)

        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        #expect(f.note(key: "grace@example.com", text: "  Great \u{1B}[31mtalk\u{9B}1m!  ").outcome == .noted)
        let empty = f.note(key: "grace@example.com", text: " \u{1B} ")
        #expect(empty.outcome == .error)
        #expect(empty.message == "the note is empty")

        let log = try f.replica.presenceLog(campaignID: f.campaignID)
        #expect(log.count == 1)
        #expect(log.first?.note == "Great talk!")
    }

    @Test func longNoteIsTruncated() throws {
        let f = try HandlerFixture.importedAndLocked()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        #expect(f.note(key: "grace@example.com", text: String(repeating: "n", count: 5_000)).outcome == .noted)
        let note = try #require(try f.replica.presenceLog(campaignID: f.campaignID).first?.note)
        #expect(note.count == Limits.maxNoteCharacters)
    }

    // MARK: - Organizer submissions

    @Test func headReturnsTheOrganizersSeq() throws {
        let f = try HandlerFixture()
        let request = ControlRequest.head(author: f.organizerID)
        let empty = f.handler.handle(request)
        #expect(empty.outcome == .head)
        #expect(empty.headSeq == 0)
        #expect(empty.headHash == [UInt8](repeating: 0, count: 32))

        try f.importAndLock()
        let head = f.handler.handle(request)
        #expect(head.headSeq == 5)
        #expect(head.headHash == (try f.organizerHead().hash))

        #expect(f.answer(line: #"{"op":"head","author":"not hex"}"#).message == "author must be a hex public key")
        #expect(f.answer(line: #"{"op":"head"}"#).message == "missing author")
    }

    @Test func resubmittingTheSameBatchIsIdempotent() throws {
        let f = try HandlerFixture()
        let deltas = try f.sign([.campaign(CampaignPayload(campaignID: f.campaignID, name: "DevConf"))])
        #expect(f.submit(deltas).applied == 1)
        let again = f.submit(deltas)
        #expect(again.outcome == .submitted)
        #expect(again.applied == 0)
        #expect(try f.organizerHead().seq == 1)
    }

    @Test func deltasSignedByAKioskKeyAreRejected() throws {
        let f = try HandlerFixture()
        let kiosk = try SigningKeyPair.generate()
        let deltas = try f.sign(
            [
                .campaign(CampaignPayload(campaignID: f.campaignID, name: "Rogue")),
                .lock(LockPayload(version: 99, campaignID: f.campaignID)),
            ],
            key: kiosk
        )
        let response = f.submit(deltas)
        #expect(response.outcome == .error)
        #expect(response.message?.contains("organizer") == true)
        #expect(try f.replica.view { try $0.lock() } == nil)
        #expect(try f.replica.heads().isEmpty)

        // The kiosk's own key cannot submit either.
        let own = try f.sign([.lock(LockPayload(version: 99, campaignID: f.campaignID))], key: f.kioskKey)
        #expect(f.submit(own).outcome == .error)
        #expect(try f.replica.heads().isEmpty)
    }

    @Test func mixedBatchIsAllOrNothing() throws {
        let f = try HandlerFixture()
        let good = try f.sign([.campaign(CampaignPayload(campaignID: f.campaignID, name: "DevConf"))])
        let rogue = try f.sign(
            [.campaign(CampaignPayload(campaignID: "x", name: "Rogue"))],
            key: try SigningKeyPair.generate()
        )
        #expect(f.submit(good + rogue).outcome == .error)
        #expect(try f.organizerHead().seq == 0)
    }

    @Test func malformedWireDeltasAreRejected() throws {
        let f = try HandlerFixture()
        let delta = try #require(try f.sign([.campaign(CampaignPayload(campaignID: f.campaignID, name: "D"))]).first)
        let cases: [WireDelta] = [
            WireDelta(envelope: "zz", signature: MusterCore.Hex.encode(delta.signature)),
            WireDelta(envelope: MusterCore.Hex.encode(delta.envelope), signature: "abc"),
            WireDelta(
                envelope: MusterCore.Hex.encode(delta.envelope),
                signature: MusterCore.Hex.encode(delta.signature.dropLast())
            ),
            WireDelta(envelope: "00", signature: MusterCore.Hex.encode(delta.signature)),
        ]
        for wire in cases {
            let request = ControlRequest.submit(OrganizerSubmission(deltas: [wire]))
            let response = f.handler.handle(request)
            #expect(response.outcome == .error)
            #expect(response.message == "a submitted delta is malformed")
        }
        // A valid shape with a forged signature is refused by the replica.
        var forged = delta.signature
        forged[0] ^= 0xFF
        let request = ControlRequest.submit(
            OrganizerSubmission(deltas: [
                WireDelta(envelope: MusterCore.Hex.encode(delta.envelope), signature: MusterCore.Hex.encode(forged))
            ])
        )
        #expect(f.handler.handle(request).outcome == .error)
        #expect(try f.organizerHead().seq == 0)
    }

    @Test func staleChainIsRefusedAndNothingApplied() throws {
        let f = try HandlerFixture()
        try f.submit([.campaign(CampaignPayload(campaignID: f.campaignID, name: "DevConf"))])
        let oldHead = try f.organizerHead()
        // Another organizer session moves the head on.
        try f.submit([
            Bodies.attendee(f.campaignID, email: "first@example.com", first: "First", last: "Session")
        ])
        let digestBefore = try f.replica.digest()
        let headBefore = try f.organizerHead()
        #expect(headBefore.seq == 2)

        // This session still builds on the old head.
        let stale = try f.sign(
            [
                Bodies.attendee(f.campaignID, email: "second@example.com", first: "Second", last: "Session"),
                .lock(LockPayload(version: 1, campaignID: f.campaignID)),
            ],
            head: oldHead
        )
        let response = f.submit(stale)
        #expect(response.outcome == .error)
        #expect(response.message?.hasPrefix("stale organizer head") == true, "\(response.message ?? "")")
        #expect(response.applied == nil)
        #expect(try f.organizerHead() == headBefore)
        #expect(try f.replica.digest() == digestBefore)
        #expect(try f.attendeeRecord("second@example.com") == nil)
        #expect(try f.replica.view { try $0.lock() } == nil)
        #expect(try f.replica.status().forks == 0, "a refused atomic batch leaves no trace")

        // Rebuilt on the current head, the same bodies go in.
        let rebuilt = try f.sign([
            Bodies.attendee(f.campaignID, email: "second@example.com", first: "Second", last: "Session")
        ])
        #expect(f.submit(rebuilt).applied == 1)
    }

    @Test func chainWithAGapIsStale() throws {
        let f = try HandlerFixture()
        var deltas = try f.sign([
            .campaign(CampaignPayload(campaignID: f.campaignID, name: "DevConf")),
            .lock(LockPayload(version: 1, campaignID: f.campaignID)),
        ])
        deltas.removeFirst()
        let response = f.submit(deltas)
        #expect(response.outcome == .error)
        #expect(response.message?.hasPrefix("stale organizer head") == true)
        #expect(try f.organizerHead().seq == 0)
    }

    // MARK: - Window

    @Test func lockClosedInThePastRefusesCheckIn() throws {
        let f = try HandlerFixture()
        try f.importAndLock(closes: Int64(HandlerFixture.now) - 1_000)
        let response = f.request(.checkIn, query: "grace@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("closed") == true)
        #expect(f.register(first: "Late", last: "Comer", email: "late@example.com").outcome == .refused)
        #expect(try f.deltaCount(of: f.handler.author) == 0)
    }

    @Test func lockOpeningLaterRefusesCheckIn() throws {
        let f = try HandlerFixture()
        try f.importAndLock(opens: Int64(HandlerFixture.now) + 3_600_000)
        let response = f.request(.checkIn, query: "grace@example.com")
        #expect(response.outcome == .refused)
        #expect(response.message?.contains("opens") == true)
    }

    @Test func lockStatusChangeAppliesToLaterCheckIns() throws {
        let f = try HandlerFixture()
        try f.importAndLock(status: "Attended")
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        try f.submit([.lock(LockPayload(version: 2, campaignID: f.campaignID, checkInStatus: "Attended Late"))])
        #expect(f.request(.checkIn, query: "ada.lovelace@example.com").outcome == .checkedIn)
        #expect(try f.attendeeRecord("grace@example.com")?.firstArrival?.memberStatus == "Attended")
        #expect(try f.attendeeRecord("ada.lovelace@example.com")?.firstArrival?.memberStatus == "Attended Late")
    }

    // MARK: - Misc

    @Test func pingAndStatusNameTheKiosk() throws {
        let f = try HandlerFixture(name: "Hall Z")
        for request in [ControlRequest.ping, .status] {
            let response = f.handler.handle(request)
            #expect(response.outcome == (request == .ping ? .pong : .status))
            #expect(response.kioskName == "Hall Z")
            #expect(response.kioskKey == f.kioskKey.publicKey.hex)
        }
    }

    @Test func concurrentCheckInsOfOnePersonRecordExactlyOne() throws {
        let f = try HandlerFixture.importedAndLocked()
        let handler = f.handler
        let outcomes = Mutex<[ControlResponse.Outcome]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let request = ControlRequest.checkIn(query: "grace@example.com")
            let outcome = handler.handle(request).outcome
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.filter { $0 == .checkedIn }.count == 1)
        #expect(all.filter { $0 == .alreadyCheckedIn }.count == 7)
        #expect(try f.deltaCount(of: handler.author) == 1)
    }
}

@Suite("HybridLogicalClock")
struct WallClockTests {
    @Test func ticksAreStrictlyIncreasingOnAStoppedClock() {
        let clock = HybridLogicalClock(physical: { 1_000 })
        let a = clock.tick()
        let b = clock.tick()
        #expect(a == HLC(physicalMillis: 1_000, logical: 0))
        #expect(b == HLC(physicalMillis: 1_000, logical: 1))
        #expect(clock.nowMillis == 1_000)
    }

    @Test func observeMovesTheClockOnlyWithinTheBound() {
        let clock = HybridLogicalClock(physical: { 10_000 }, boundMillis: 5_000)
        #expect(clock.boundMillis == 5_000)
        #expect(clock.observe(HLC(physicalMillis: 14_000, logical: 3)) == .merged)
        #expect(clock.tick() == HLC(physicalMillis: 14_000, logical: 4))
        #expect(clock.observe(HLC(physicalMillis: 100_000, logical: 0)) == .tooFarAhead(byMillis: 90_000))
        #expect(clock.tick() == HLC(physicalMillis: 14_000, logical: 5))
    }

    @Test func offsetShiftsSystemTime() {
        let system = UInt64(Date().timeIntervalSince1970 * 1000)
        let clock = HybridLogicalClock(offsetMillis: 3_600_000)
        let shifted = clock.nowMillis
        #expect(shifted >= system + 3_600_000)
        #expect(shifted < system + 3_600_000 + 60_000)
        #expect(HybridLogicalClock(offsetMillis: -Int64(system) - 1_000_000).nowMillis == 0, "never before the epoch")
    }
}
