import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTestSupport
import MusterTime

@testable import MusterDaemon

/// Several kiosks of one venue, each a real control handler over its own replica, in one
/// process: "sync" hands every delta one replica holds to another through `ingest`, exactly what
/// the sync layer stores, so a partition is simply not calling it. Time is a ``ManualClock``.
final class DoorVenue {
    struct Kiosk {
        let key: SigningKeyPair
        let replica: Replica
        let handler: ControlHandler
        var author: AuthorID { AuthorID(key.publicKey) }
    }

    let directory: TemporaryDirectory
    let organizer: SigningKeyPair
    /// Every kiosk's enrollment certificate, in kiosk order.
    private(set) var certificates: [SignedDelta] = []
    let venue: VenueID
    let clock: ManualClock
    private(set) var kiosks: [Kiosk] = []
    let campaignID = "c0ffee0000000016"
    private var organizerHead: AuthorHead
    private var lockVersion: UInt64 = 0
    private var organizerMillis: UInt64 = 0

    /// One kiosk per zone name in `zones` (the kiosk's location).
    init(zones: [String]) throws {
        directory = try TemporaryDirectory("muster-doors")
        organizer = try SigningKeyPair.generate()
        venue = VenueID.random()
        clock = ManualClock(wallMillis: HandlerFixture.now)
        organizerHead = .empty(AuthorID(organizer.publicKey))
        let policy = VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
        let keys = try zones.map { _ in try SigningKeyPair.generate() }
        let certificates = zip(keys, zones).enumerated().map { index, pair in
            VenuePolicy.certificate(
                venue: venue,
                organizer: organizer,
                payload: EnrollPayload(kiosk: AuthorID(pair.0.publicKey), name: "k\(index + 1)", location: pair.1),
                hlc: HLC(physicalMillis: HandlerFixture.now - 3_600_000, logical: 0)
            )
        }
        self.certificates = certificates
        for (index, (key, zone)) in zip(keys, zones).enumerated() {
            let replica = try Replica.open(path: directory.file("k\(index + 1).sqlite"), policy: policy)
            for (other, certificate) in zip(keys, certificates) {
                try replica.admitCertificate(certificate, for: AuthorID(other.publicKey))
            }
            kiosks.append(makeKiosk(index: index, key: key, zone: zone, replica: replica))
        }
    }

    private func makeKiosk(index: Int, key: SigningKeyPair, zone: String, replica: Replica) -> Kiosk {
        var config = KioskConfig()
        config.name = "k\(index + 1)"
        config.location = zone
        config.stateDirectory = directory.path
        let clock = self.clock
        let handler = ControlHandler(
            replica: replica,
            keyPair: key,
            config: config,
            clock: HybridLogicalClock(physical: { clock.wallMillis }),
            logger: TestSupport.quietLogger
        )
        return Kiosk(key: key, replica: replica, handler: handler)
    }

    /// Enrolls a new kiosk at `zone` while only the kiosks in `reaching` are in session with it: they
    /// and it hold its certificate (the others learn it when they meet it, ``meet(_:)``), and it
    /// holds the organizer's log and everything they hold. Returns its index.
    func enroll(zone: String, reaching: [Int]) throws -> Int {
        let index = kiosks.count
        let key = try SigningKeyPair.generate()
        let certificate = VenuePolicy.certificate(
            venue: venue,
            organizer: organizer,
            payload: EnrollPayload(kiosk: AuthorID(key.publicKey), name: "k\(index + 1)", location: zone),
            hlc: HLC(physicalMillis: clock.wallMillis - 60_000, logical: 0)
        )
        let replica = try Replica.open(
            path: directory.file("k\(index + 1).sqlite"),
            policy: VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
        )
        for (other, known) in zip(kiosks, certificates) {
            try replica.admitCertificate(known, for: other.author)
        }
        try replica.admitCertificate(certificate, for: AuthorID(key.publicKey))
        for peer in reaching { try kiosks[peer].replica.admitCertificate(certificate, for: AuthorID(key.publicKey)) }
        let organizerLog = try kiosks[reaching[0]].replica.deltas(of: AuthorID(organizer.publicKey))
        _ = try replica.ingest(organizerLog, nowMillis: clock.wallMillis, clockBoundMillis: 300_000)
        certificates.append(certificate)
        kiosks.append(makeKiosk(index: index, key: key, zone: zone, replica: replica))
        for peer in reaching {
            try sync(from: kiosks[peer], to: kiosks[index])
            try sync(from: kiosks[index], to: kiosks[peer])
        }
        return index
    }

    /// A partition heals: every kiosk learns every certificate, as a session would show it.
    func meetAll() throws {
        for kiosk in kiosks {
            for (other, certificate) in zip(kiosks, certificates) {
                try kiosk.replica.admitCertificate(certificate, for: other.author)
            }
        }
    }

    deinit { directory.remove() }

    /// The organizer's deltas, signed in order and ingested by every kiosk.
    func organize(_ bodies: [DeltaBody]) throws {
        var signer = DeltaSigner(venue: venue, keyPair: organizer, head: organizerHead)
        let signed = try bodies.map { body in
            organizerMillis = max(organizerMillis + 1, clock.wallMillis - 60_000)
            return try signer.sign(body, hlc: HLC(physicalMillis: organizerMillis, logical: 0))
        }
        organizerHead = signer.head
        for kiosk in kiosks {
            let report = try kiosk.replica.ingest(signed, nowMillis: clock.wallMillis, clockBoundMillis: 300_000)
            guard report.rejected.isEmpty else { throw TestFailure("organizer deltas refused: \(report.rejected)") }
        }
    }

    /// The campaign, `attendees` admitted attendees (a0@x.org …) and one refunded, locked with `rules`.
    func setUp(attendees: Int, rules: DoorRules?) throws {
        var bodies: [DeltaBody] = [.campaign(CampaignPayload(campaignID: campaignID, name: "Doors"))]
        for index in 0..<attendees {
            bodies.append(Bodies.attendee(campaignID, email: "a\(index)@x.org", first: "A", last: "\(index)"))
        }
        bodies.append(
            Bodies.attendee(
                campaignID,
                email: "refunded@x.org",
                first: "R",
                last: "R",
                status: "Refunded",
                admitted: false
            )
        )
        try organize(bodies)
        try lock(rules)
    }

    /// A new lock with `rules`, made as `muster lock` makes it on the organizer's machine, whose
    /// replica is kiosk `organizerKiosk`'s.
    func lockAsOrganizer(_ rules: DoorRules, seenBy organizerKiosk: Int = 0) throws {
        try lock(ZoneDoors(roster: try kiosks[organizerKiosk].replica.roster()).signedInto(rules))
    }

    /// A new lock (next version) with `rules`.
    func lock(_ rules: DoorRules?) throws {
        lockVersion += 1
        try organize([
            .lock(LockPayload(version: lockVersion, campaignID: campaignID, checkInStatus: "Attended", rules: rules))
        ])
    }

    func scan(_ kiosk: Int, _ query: String) -> ControlResponse {
        let request = ControlRequest.checkIn(query: query)
        return kiosks[kiosk].handler.handle(request)
    }

    func checkOut(_ kiosk: Int, _ query: String) -> ControlResponse {
        let request = ControlRequest.checkOut(query: query)
        return kiosks[kiosk].handler.handle(request)
    }

    /// Every kiosk receives every delta any other holds (a healed, fully connected venue).
    func syncAll() throws {
        for target in kiosks {
            for source in kiosks where source.author != target.author {
                try sync(from: source, to: target)
            }
        }
    }

    /// `to` receives what `from` holds of every kiosk author (one direction of one link).
    func sync(from: Kiosk, to: Kiosk) throws {
        for author in kiosks.map(\.author) + [AuthorID(organizer.publicKey)] {
            let have = try to.replica.head(of: author).seq
            let missing = try from.replica.deltas(of: author, after: have)
            guard !missing.isEmpty else { continue }
            let report = try to.replica.ingest(missing, nowMillis: clock.wallMillis, clockBoundMillis: 300_000)
            guard report.rejected.isEmpty else { throw TestFailure("sync refused: \(report.rejected)") }
            // As the daemon's sync does: what a kiosk heard, it stamps its own writes after.
            if let newest = report.newestAcceptedHLC { _ = to.handler.clock.observe(newest) }
        }
    }

    func inside(_ kiosk: Int, zone: String) throws -> Int {
        try kiosks[kiosk].replica.view { try $0.insideCount(campaignID: campaignID, zone: zone) }
    }

    /// The door audit records one kiosk's replica holds, of every author.
    func scans(on kiosk: Int) throws -> [DeltaRef: ScanPayload] {
        var found: [DeltaRef: ScanPayload] = [:]
        for author in kiosks.map(\.author) {
            for delta in try kiosks[kiosk].replica.deltas(of: author) {
                if case .scan(let scan)? = try? delta.decode().body { found[delta.ref] = scan }
            }
        }
        return found
    }
}
