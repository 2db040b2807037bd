import Foundation
import Logging
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTestSupport

@testable import MusterDaemon

/// A control handler over a real replica in a temp directory, with a real organizer key whose
/// deltas go in through `submit`, exactly as `muster` sends them.
final class HandlerFixture {
    /// 2026-11-22 09:00:00 UTC, the "now" of the fixed clock.
    static let now: UInt64 = 1_795_338_000_000

    let directory: TemporaryDirectory
    let organizer: SigningKeyPair
    let kioskKey: SigningKeyPair
    let venue: VenueID
    let replica: Replica
    let handler: ControlHandler
    let campaignID = "c0ffee0000000001"
    private var organizerHLC: UInt64

    init(name: String = "Hall A", location: String = "Main entrance", now: UInt64 = HandlerFixture.now) throws {
        directory = try TemporaryDirectory("muster-svc")
        organizer = try SigningKeyPair.generate()
        kioskKey = try SigningKeyPair.generate()
        venue = VenueID.random()
        replica = try Replica.open(
            path: directory.file("replica.sqlite"),
            policy: VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
        )
        try replica.enroll(
            kioskKey,
            venue: venue,
            organizer: organizer,
            name: name,
            location: location,
            atMillis: now - 3_600_000
        )
        var config = KioskConfig()
        config.name = name
        config.location = location
        config.stateDirectory = directory.path
        handler = ControlHandler(
            replica: replica,
            keyPair: kioskKey,
            config: config,
            clock: HybridLogicalClock(physical: { now }),
            logger: TestSupport.quietLogger
        )
        organizerHLC = now - 60_000
    }

    deinit { directory.remove() }

    var organizerID: AuthorID { AuthorID(organizer.publicKey) }

    /// Puts another kiosk of the venue on the roster, as its certificate (stamped `millis`) would
    /// when sync brings it.
    func enrollPeer(
        _ key: SigningKeyPair,
        name: String,
        location: String = "",
        atMillis millis: UInt64 = HandlerFixture.now - 3_600_000
    ) throws {
        try replica.enroll(key, venue: venue, organizer: organizer, name: name, location: location, atMillis: millis)
    }

    /// The organizer's current head, as the daemon reports it.
    func organizerHead() throws -> AuthorHead { try replica.head(of: organizerID) }

    func nextHLC() -> HLC {
        organizerHLC += 1
        return HLC(physicalMillis: organizerHLC, logical: 0)
    }

    /// Signs `bodies` with `key` (the organizer's unless given) on top of `head`.
    func sign(_ bodies: [DeltaBody], key: SigningKeyPair? = nil, head: AuthorHead? = nil) throws -> [SignedDelta] {
        let key = key ?? organizer
        let start = try head ?? replica.head(of: AuthorID(key.publicKey))
        var signer = DeltaSigner(venue: venue, keyPair: key, head: start)
        return try bodies.map { try signer.sign($0, hlc: nextHLC()) }
    }

    func submit(_ deltas: [SignedDelta]) -> ControlResponse {
        let request = ControlRequest.submit(OrganizerSubmission(deltas: deltas.map(WireDelta.init)))
        return handler.handle(request)
    }

    @discardableResult
    func submit(_ bodies: [DeltaBody]) throws -> ControlResponse {
        submit(try sign(bodies))
    }

    /// A fixture with the campaign imported and the kiosks locked to it (``importAndLock(status:opens:closes:)``).
    static func importedAndLocked() throws -> HandlerFixture {
        let fixture = try HandlerFixture()
        try fixture.importAndLock()
        return fixture
    }

    /// Creates the campaign with three attendees (one not admitted) and locks the kiosks to it.
    func importAndLock(
        status: String = "Attended",
        opens: Int64? = nil,
        closes: Int64? = nil
    ) throws {
        let response = try submit([
            .campaign(CampaignPayload(campaignID: campaignID, name: "DevConf 2026")),
            Bodies.attendee(
                campaignID,
                email: "Ada.Lovelace@Example.com",
                first: "Ada",
                last: "Lovelace",
                company: "Analytical",
                ticket: "MUS-0001",
                salesforceID: "00v000000000001AAA"
            ),
            Bodies.attendee(campaignID, email: "grace@example.com", first: "Grace", last: "Hopper", ticket: "MUS-0002"),
            Bodies.attendee(
                campaignID,
                email: "refunded@example.com",
                first: "Rita",
                last: "Refund",
                ticket: "MUS-0003",
                status: "Refunded",
                admitted: false
            ),
            .lock(
                LockPayload(
                    version: 1,
                    campaignID: campaignID,
                    checkInStatus: status,
                    opensAtMillis: opens,
                    closesAtMillis: closes
                )
            ),
        ])
        guard response.outcome == .submitted, response.applied == 5 else {
            throw TestFailure("import failed: \(response)")
        }
    }

    /// A check-in, check-out or lookup of `query`.
    func request(_ op: ControlRequest.Operation, query: String) -> ControlResponse {
        switch op {
        case .checkIn: handler.handle(.checkIn(query: query))
        case .checkOut: handler.handle(.checkOut(query: query))
        case .lookup: handler.handle(.lookup(query: query))
        default: preconditionFailure("\(op) takes no query alone")
        }
    }

    /// How the daemon answers staff's `line` (JSON) when it has no badge desk: a request carried out,
    /// a known operation without what it needs answered as a bad request, anything else malformed.
    func answer(line: String) -> ControlResponse {
        do {
            return handler.handle(try ControlRequest.read(Array(line.utf8)))
        } catch let error where error.code == .incomplete {
            return handler.answer(incomplete: error)
        } catch {
            return .failure(.badRequest, "malformed control request")
        }
    }

    func register(first: String, last: String, email: String, company: String = "") -> ControlResponse {
        let request = ControlRequest.register(
            WalkInRegistration(firstName: first, lastName: last, email: email, company: company)
        )
        return handler.handle(request)
    }

    func note(key: String, text: String) -> ControlResponse {
        let request = ControlRequest.note(attendeeKey: key, text: text)
        return handler.handle(request)
    }

    func attendeeRecord(_ key: String) throws -> AttendeeRecord? {
        try replica.view { try $0.attendee(campaignID: campaignID, key: key) }
    }

    /// The author's deltas other than door audit records (`scan`, issue 16), which every refused
    /// scan writes: what a refusal must not write is a check-in or any other fact.
    func deltaCount(of author: AuthorID) throws -> Int {
        try replica.deltas(of: author).filter { $0.kind != .scan }.count
    }

    /// The author's door audit records.
    func scans(of author: AuthorID) throws -> [ScanPayload] {
        try replica.deltas(of: author).compactMap { delta in
            guard case .scan(let scan)? = try? delta.decode().body else { return nil }
            return scan
        }
    }
}
