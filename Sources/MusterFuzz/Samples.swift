import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// Genuine values for the seed corpus, made by the product's own encoders with real libsodium keys:
/// what a kiosk actually sends, so mutations start from deep inside the formats.
enum Samples {
    static let venue = VenueID(bytes: (0..<UInt8(VenueID.byteCount)).map { $0 &* 17 &+ 3 })!
    static let start = HLC(physicalMillis: 1_750_000_000_000, logical: 0)
    static let campaign = "devconf-2026"

    /// A real Ed25519 key from a fixed seed: signatures are deterministic, so regenerating the corpus
    /// changes no delta seed unless an encoding changed.
    static func fixedKey(_ number: UInt8) throws -> SigningKeyPair {
        try SigningKeyPair(seed: SecureBytes(copying: [UInt8](repeating: number, count: SigningKeyPair.seedByteCount)))
    }

    /// One log body of every kind Muster had when this harness was written (enrollments are not in logs:
    /// see ``enrollment(of:by:)``).
    static func bodies(kiosk: AuthorID) -> [DeltaBody] {
        let presence = PresencePayload(
            campaignID: campaign,
            attendeeKey: "ana@example.com",
            kioskName: "Kiosk A",
            location: "Hall A",
            memberStatus: "Attended"
        )
        return [
            .campaign(CampaignPayload(campaignID: campaign, name: "DevConf 2026")),
            .attendee(
                AttendeePayload(
                    campaignID: campaign,
                    key: "ana@example.com",
                    email: "Ana@Example.com",
                    firstName: "Ana María",
                    lastName: "López",
                    company: "Ñandú GmbH",
                    ticket: "T-1001",
                    salesforceID: "00v5g00000ABCDEFGH",
                    status: "Registered",
                    admitted: true
                )
            ),
            .attendee(
                AttendeePayload(
                    campaignID: campaign,
                    key: "vip@example.com",
                    email: "vip@example.com",
                    firstName: "Łukasz",
                    lastName: "Żółw",
                    company: "",
                    ticket: "T-1002",
                    salesforceID: nil,
                    status: nil,
                    admitted: true,
                    details: AttendeeDetails(
                        ticketType: "VIP – Friday",
                        order: "ABC12",
                        addons: ["T-shirt"],
                        attention: true,
                        attentionText: "Greet: keynote speaker",
                        validFromMillis: 1_750_000_000_000,
                        validUntilMillis: 1_750_086_400_000
                    )
                )
            ),
            .lock(LockPayload(version: 2, campaignID: campaign, opensAtMillis: 1_750_000_000_000, closesAtMillis: nil)),
            .lock(
                LockPayload(
                    version: 3,
                    campaignID: campaign,
                    rules: DoorRules(
                        zones: [
                            ZoneRule(name: "Hall A", capacity: 100, escrow: true),
                            ZoneRule(name: "Annex", exclusive: true, closesAtMillis: 1_750_036_000_000),
                            ZoneRule(name: "VIP", types: ["VIP"], addons: ["T-shirt"]),
                        ],
                        entries: .perDay(2),
                        reEntry: false
                    )
                )
            ),
            .checkIn(CheckInPayload(presence)),
            .checkIn(CheckInPayload(presence, ends: [DeltaRef(author: kiosk, seq: 1)])),
            .checkOut(CheckOutPayload(presence)),
            .scan(ScanPayload(campaignID: campaign, attendeeKey: "ana@example.com", reason: .zoneFull, atMillis: 1)),
            .scan(ScanPayload(campaignID: "", attendeeKey: "", reason: .notFound, count: 12, atMillis: 60_000)),
            .registration(
                RegistrationPayload(
                    presence: presence,
                    email: "walk.in@example.org",
                    firstName: "Walk",
                    lastName: "In",
                    company: "",
                    ticket: "W-0000AAAA"
                )
            ),
            .note(NotePayload(campaignID: campaign, attendeeKey: "ana@example.com", text: "Great keynote! 🎉")),
            .badge(BadgePayload(campaignID: campaign, attendeeKey: "ana@example.com", reason: .selfService)),
            .badgeCode(BadgeCodePayload(campaignID: campaign, attendeeKey: "ana@example.com", code: "R-0000AAAA")),
            .redemption(RedemptionPayload(campaignID: campaign, attendeeKey: "vip@example.com", addon: "T-shirt")),
            .session(
                SessionPayload(
                    id: "s-0123456789abcdef",
                    name: "Swift on Linux",
                    zone: "Lab",
                    startMillis: 1_795_330_000_000,
                    endMillis: 1_795_335_400_000,
                    capacity: 30,
                    registeredOnly: true,
                    opensEarlyMillis: 900_000,
                    code: "031234",
                    doors: [kiosk]
                )
            ),
            .attendance(
                AttendancePayload(
                    campaignID: campaign,
                    attendeeKey: "ana@example.com",
                    sessionID: "s-1",
                    direction: .left
                )
            ),
            .sessionRegistration(
                SessionRegistrationPayload(sessionID: "s-1", campaignID: campaign, attendeeKeys: ["ana@example.com"])
            ),
            .undo(UndoPayload(target: DeltaRef(author: kiosk, seq: 1))),
            .revoke(
                RevokePayload(
                    kiosk: kiosk,
                    watermark: 42,
                    keyGeneration: 2,
                    sealedKeys: [.init(kiosk: kiosk, sealed: (0..<UInt8(RevokePayload.sealedKeyByteCount)).map { $0 })]
                )
            ),
        ]
    }

    /// An enrollment certificate: the organizer's signed statement that `kiosk` belongs to the venue.
    /// Outside every log, so seq 0 and no chain (which `DeltaSigner` cannot make).
    static func enrollment(of kiosk: AuthorID, by organizer: SigningKeyPair) throws -> SignedDelta {
        let delta = Delta(
            venue: venue,
            author: AuthorID(organizer.publicKey),
            seq: 0,
            prev: Delta.genesisPrev,
            hlc: start,
            body: .enroll(EnrollPayload(kiosk: kiosk, name: "Kiosk A", location: "Hall A"))
        )
        let envelope = delta.envelope()
        return try SignedDelta(envelope: envelope, signature: organizer.sign(envelope))
    }

    /// A signed delta of every `DeltaKind`, chained in one author's log (plus one enrollment certificate
    /// outside it). Kinds added after this harness
    /// (no sample body here) still get a correctly signed envelope with an empty body, so the corpus
    /// keeps covering the header checks of every kind `DeltaKind.allCases` lists.
    static func signedDeltas() throws -> [SignedDelta] {
        let key = try fixedKey(1)
        let author = AuthorID(key.publicKey)
        var signer = DeltaSigner(venue: venue, keyPair: key, head: .empty(author))
        var clock = start
        var deltas: [SignedDelta] = []
        let bodies = bodies(kiosk: author)
        for body in bodies {
            clock = HLC(physicalMillis: clock.physicalMillis + 1_000, logical: 0)
            deltas.append(try signer.sign(body, hlc: clock))
        }
        deltas.append(try enrollment(of: AuthorID(try fixedKey(2).publicKey), by: key))
        let covered = Set(bodies.map(\.kind) + [.enroll])
        for kind in DeltaKind.allCases where !covered.contains(kind) {
            var writer = ByteWriter()
            writer.write(Delta.encodingVersion)
            writer.write(kind.rawValue)
            writer.writeRaw(venue.bytes)
            writer.writeRaw(author.bytes)
            writer.write(UInt64(1))
            writer.writeRaw(Delta.genesisPrev)
            writer.write(clock.packed)
            writer.writeBlob([UInt8]())
            deltas.append(try SignedDelta(envelope: writer.bytes, signature: key.sign(writer.bytes)))
        }
        return deltas
    }

    /// One message of every `SyncMessage` case this harness knows, named for the seed files.
    static func syncMessages() throws -> [(name: String, message: SyncMessage)] {
        let deltas = try signedDeltas()
        let heads = deltas.prefix(3).map {
            AuthorHead(author: $0.author, seq: $0.seq, hash: Array($0.envelope.prefix(32)))
        }
        return [
            ("hello", .hello(epoch: "3f2a9c1e-epoch", heads: heads)),
            ("hello-empty", .hello(epoch: "", heads: [])),
            ("heads", .heads(heads)),
            ("deltas", .deltas(Array(deltas.prefix(4)))),
            ("deltas-all-kinds", .deltas(deltas)),
            ("ping", .ping),
            ("pong", .pong),
            ("credentials", .credentials(deltas.first { $0.kind == .enroll }!)),
            ("roster", .roster(deltas.filter { $0.kind == .enroll })),
            ("revoked", .revoked(deltas.first { $0.kind == .revoke }!)),
            ("digest", .digest("3b5f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a")),
            ("sessions", .sessions(Array(Set(deltas.map(\.author))).sorted { $0.hex < $1.hex })),
        ]
    }
}
