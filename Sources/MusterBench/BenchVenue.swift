import MusterCore
import MusterCrypto
import MusterRules
import MusterStore

/// A venue with real libsodium keys: the organizer and `kiosks` enrolled kiosks, and the signed logs
/// they would write at an event (the organizer's attendee import, the kiosks' check-ins).
struct BenchVenue {
    static let campaign = "bench-2026"
    /// 2025-06-15, as in the store tests; every delta is stamped a millisecond after the previous one.
    static let start: UInt64 = 1_750_000_000_000
    static let clockBoundMillis: UInt64 = 5 * 60 * 1_000

    let organizerKey: SigningKeyPair
    let kioskKeys: [SigningKeyPair]
    let policy: VenuePolicy

    /// A venue with fresh random keys and venue id.
    init(kiosks: Int) throws {
        organizerKey = try SigningKeyPair.generate()
        kioskKeys = try (0..<kiosks).map { _ in try SigningKeyPair.generate() }
        policy = VenuePolicy(venue: VenueID.random(), organizer: AuthorID(organizerKey.publicKey))
    }

    /// The same venue in every process: keys and venue id drawn from `seed`, so its logs are the same
    /// bytes every time. The instruction-count guard needs that: libsodium's signature check takes a
    /// data-dependent number of instructions (a variable-time double scalar multiplication), so other
    /// keys would be other work. These keys sign benchmark data only, never anything secret.
    init(kiosks: Int, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        organizerKey = try SigningKeyPair(seed: SecureBytes(copying: bytes(SigningKeyPair.seedByteCount)))
        kioskKeys = try (0..<kiosks).map { _ in
            try SigningKeyPair(seed: SecureBytes(copying: bytes(SigningKeyPair.seedByteCount)))
        }
        guard let venue = VenueID(bytes: bytes(VenueID.byteCount)) else {
            throw BenchError(.setup, "cannot make a venue id from seed \(seed)")
        }
        policy = VenuePolicy(venue: venue, organizer: AuthorID(organizerKey.publicKey))
    }

    static func email(_ index: Int) -> String { "attendee\(index).surname\(index)@bench.example" }
    static func ticket(_ index: Int) -> String { "MB-\(100_000 + index)" }
    static func kioskName(_ index: Int) -> String { "Kiosk \(index + 1)" }

    /// Opens a fresh replica with every kiosk's certificate admitted.
    func openReplica(path: String) throws -> Replica {
        let replica = try Replica.open(path: path, policy: policy)
        for (index, key) in kioskKeys.enumerated() {
            let payload = EnrollPayload(kiosk: AuthorID(key.publicKey), name: Self.kioskName(index), location: "Hall")
            let certificate = VenuePolicy.certificate(
                venue: policy.venue,
                organizer: organizerKey,
                payload: payload,
                hlc: HLC(physicalMillis: Self.start, logical: 0)
            )
            _ = try replica.admitCertificate(certificate, for: AuthorID(key.publicKey))
        }
        return replica
    }

    /// The organizer's log: one campaign, then `attendees` attendees with an email and a ticket each,
    /// then, with `locked`, the lock a door needs before it admits anyone (no door rules).
    func importLog(attendees: Int, locked: Bool = false) throws -> [SignedDelta] {
        var signer = DeltaSigner(venue: policy.venue, keyPair: organizerKey, head: .empty(policy.organizer))
        var stamp = Self.start
        var log = [
            try signer.sign(.campaign(CampaignPayload(campaignID: Self.campaign, name: "Bench 2026")), hlc: hlc(&stamp))
        ]
        log.reserveCapacity(attendees + 1)
        for index in 0..<attendees {
            let email = Self.email(index)
            let body = DeltaBody.attendee(
                AttendeePayload(
                    campaignID: Self.campaign,
                    key: EmailAddress.key(email),
                    email: email,
                    firstName: "Attendee\(index)",
                    lastName: "Surname\(index)",
                    company: "Company \(index % 97)",
                    ticket: Self.ticket(index),
                    salesforceID: nil,
                    status: "Registered",
                    admitted: true
                )
            )
            log.append(try signer.sign(body, hlc: hlc(&stamp)))
        }
        if locked {
            let lock = LockPayload(version: 1, campaignID: Self.campaign, checkInStatus: "Attended")
            log.append(try signer.sign(.lock(lock), hlc: hlc(&stamp)))
        }
        return log
    }

    /// Each kiosk's log of check-ins: `count` in all, spread evenly, of attendees `0..<attendees` in turn.
    func checkInLogs(count: Int, attendees: Int) throws -> [[SignedDelta]] {
        var stamp = Self.start + UInt64(attendees) + 1_000
        var signers = kioskKeys.map { key in
            DeltaSigner(venue: policy.venue, keyPair: key, head: .empty(AuthorID(key.publicKey)))
        }
        var logs = [[SignedDelta]](repeating: [], count: signers.count)
        for index in 0..<count {
            let kiosk = index % signers.count
            let presence = PresencePayload(
                campaignID: Self.campaign,
                attendeeKey: EmailAddress.key(Self.email(index % max(attendees, 1))),
                kioskName: Self.kioskName(kiosk),
                location: "Hall",
                memberStatus: "Attended"
            )
            logs[kiosk].append(try signers[kiosk].sign(.checkIn(CheckInPayload(presence)), hlc: hlc(&stamp)))
        }
        return logs
    }

    /// The moment after every generated delta, for ingest's `nowMillis`.
    static func now(after deltas: Int) -> UInt64 { start + UInt64(deltas) + 10_000 }

    private func hlc(_ stamp: inout UInt64) -> HLC {
        stamp += 1
        return HLC(physicalMillis: stamp, logical: 0)
    }
}
