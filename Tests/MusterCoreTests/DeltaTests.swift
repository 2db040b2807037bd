import MusterTestSupport
import Testing

@testable import MusterCore

/// Deterministic test identities and one sample body of every kind.
enum Samples {
    static let venue = VenueID(bytes: (0..<16).map { UInt8($0 * 3) })!
    static let author = AuthorID(bytes: (0..<32).map { UInt8(200 - $0) })!
    static let other = AuthorID(bytes: [UInt8](repeating: 0x42, count: 32))!

    static let presence = PresencePayload(
        campaignID: "devcon-2025",
        attendeeKey: "ada@analytical.example",
        kioskName: "Kiosk 1",
        location: "Hall A",
        memberStatus: "Attended"
    )

    static let bodies: [DeltaBody] = [
        .campaign(CampaignPayload(campaignID: "devcon-2025", name: "DevCon 2025 — Zürich")),
        .attendee(
            AttendeePayload(
                campaignID: "devcon-2025",
                key: "ada@analytical.example",
                email: "Ada@Analytical.example",
                firstName: "Ada",
                lastName: "Lovelace",
                company: "Analytical Engines",
                ticket: "T-0001",
                salesforceID: "00v5e00000AbCdE",
                status: "Registered",
                admitted: true
            )
        ),
        .attendee(
            AttendeePayload(
                campaignID: "devcon-2025",
                key: "x@y.example",
                email: "x@y.example",
                firstName: "",
                lastName: "",
                company: "",
                ticket: nil,
                salesforceID: nil,
                status: nil,
                admitted: false
            )
        ),
        .lock(
            LockPayload(
                version: 3,
                campaignID: "devcon-2025",
                checkInStatus: "Attended",
                opensAtMillis: 1_750_000_000_000,
                closesAtMillis: 1_750_036_000_000
            )
        ),
        .lock(LockPayload(version: 4, campaignID: nil)),
        .lock(
            LockPayload(
                version: 5,
                campaignID: "devcon-2025",
                checkInStatus: "Attended",
                rules: DoorRules(
                    zones: [
                        ZoneRule(name: "Hall A", capacity: 100),
                        ZoneRule(
                            name: "Annex",
                            capacity: nil,
                            exclusive: true,
                            opensAtMillis: 1_750_000_000_000,
                            closesAtMillis: 1_750_036_000_000
                        ),
                    ],
                    entries: .perDay(2),
                    reEntry: false
                )
            )
        ),
        .lock(LockPayload(version: 6, campaignID: "devcon-2025", rules: DoorRules(entries: .once))),
        .checkIn(CheckInPayload(presence)),
        .checkIn(CheckInPayload(presence, ends: [DeltaRef(author: other, seq: 4)])),
        .checkOut(CheckOutPayload(presence)),
        .checkOut(
            CheckOutPayload(presence, ends: [DeltaRef(author: other, seq: 3), DeltaRef(author: author, seq: 9)])
        ),
        .registration(
            RegistrationPayload(
                presence: presence,
                email: "walk@in.example",
                firstName: "Wal",
                lastName: "Kin",
                company: "ACME",
                ticket: "W-0123ABCD"
            )
        ),
        .note(NotePayload(campaignID: "devcon-2025", attendeeKey: "ada@analytical.example", text: "Great talk 🎉")),
        .badge(BadgePayload(campaignID: "devcon-2025", attendeeKey: "ada@analytical.example", reason: .reprint)),
        .badgeCode(
            BadgeCodePayload(campaignID: "devcon-2025", attendeeKey: "ada@analytical.example", code: "R-0123ABCD")
        ),
        .badgeCode(BadgeCodePayload(campaignID: "devcon-2025", attendeeKey: "ada@analytical.example", code: nil)),
        .redemption(
            RedemptionPayload(campaignID: "devcon-2025", attendeeKey: "ada@analytical.example", addon: "T-shirt")
        ),
        .session(
            SessionPayload(id: "s-1", name: "Swift on Linux — Zürich", zone: "Lab", startMillis: 1, endMillis: 2)
        ),
        .session(
            SessionPayload(
                id: "spot-x",
                name: "Lab meeting",
                zone: "Lab",
                startMillis: -5,
                endMillis: 600_000,
                capacity: 0,
                registeredOnly: true,
                opensEarlyMillis: 1,
                lateAfterMillis: .max,
                code: "000000",
                removed: true
            )
        ),
        .attendance(
            AttendancePayload(
                campaignID: "devcon-2025",
                attendeeKey: "ada@analytical.example",
                sessionID: "s-1",
                direction: .entered
            )
        ),
        .sessionRegistration(
            SessionRegistrationPayload(
                sessionID: "s-1",
                campaignID: "devcon-2025",
                attendeeKeys: ["ada@analytical.example", "grace@navy.example"]
            )
        ),
        .scan(
            ScanPayload(
                campaignID: "devcon-2025",
                attendeeKey: "ada@analytical.example",
                reason: .zoneFull,
                atMillis: 7
            )
        ),
        .scan(ScanPayload(campaignID: "", attendeeKey: "", reason: .notFound, count: 41, atMillis: 1_750_000_020_000)),
        .undo(UndoPayload(target: DeltaRef(author: other, seq: 17))),
        .undo(UndoPayload(target: DeltaRef(author: other, seq: 18), targetHash: [UInt8](repeating: 9, count: 32))),
        .enroll(EnrollPayload(kiosk: other, name: "Hall A", location: "Main entrance")),
        .revoke(
            RevokePayload(
                kiosk: other,
                watermark: 12,
                keyGeneration: 2,
                sealedKeys: [
                    .init(kiosk: author, sealed: [UInt8](repeating: 7, count: RevokePayload.sealedKeyByteCount))
                ]
            )
        ),
        .revoke(
            RevokePayload(
                kiosk: other,
                watermark: 13,
                keyGeneration: 3,
                sealedKeys: [],
                watermarkHash: [UInt8](repeating: 4, count: 32)
            )
        ),
    ]

    static func delta(
        _ body: DeltaBody,
        seq: UInt64 = 1,
        prev: [UInt8] = Delta.genesisPrev,
        hlc: HLC = HLC(physicalMillis: 1_750_000_000_000, logical: 2)
    ) -> Delta {
        // An enrollment certificate always has seq 0.
        Delta(venue: venue, author: author, seq: body.kind == .enroll ? 0 : seq, prev: prev, hlc: hlc, body: body)
    }

    /// Offsets of the envelope header, spelled out independently of `SignedDelta`'s constants.
    static let seqOffset = 2 + 16 + 32
    static let hlcOffset = seqOffset + 8 + 32
    static let bodyOffset = hlcOffset + 8
}

@Suite("Delta envelope")
struct DeltaTests {
    @Test func everyKindIsCovered() {
        #expect(Set(Samples.bodies.map(\.kind)) == Set(DeltaKind.allCases))
    }

    @Test(arguments: Samples.bodies)
    func bodyRoundTripsThroughTheEnvelope(body: DeltaBody) throws {
        let prev = (0..<32).map { UInt8($0) }
        // An enrollment is a certificate outside the logs: seq 0.
        let delta = Samples.delta(body, seq: 42, prev: prev, hlc: HLC(physicalMillis: 1_750_000_000_123, logical: 9))
        let envelope = delta.envelope()
        #expect(envelope[0] == Delta.encodingVersion)
        #expect(envelope[1] == body.kind.rawValue)
        let decoded = try Delta.decode(envelope: envelope)
        #expect(decoded == delta)
        #expect(decoded.kind == body.kind)
        // Exactly one encoding: re-encoding gives the same bytes.
        #expect(decoded.envelope() == envelope)
        #expect(try DeltaBody.decode(kind: body.kind, bytes: body.encode()) == body)
    }

    @Test func certificatesHaveSeqZeroAndLogEntriesDoNot() {
        let enroll = Samples.delta(Samples.bodies.first { $0.kind == .enroll }!, seq: 0).envelope()
        var withSeq = enroll
        withSeq[Samples.seqOffset + 7] = 1
        #expect(throws: DecodeError.self) { try Delta.decode(envelope: withSeq) }
        var checkIn = Samples.delta(.checkIn(CheckInPayload(Samples.presence))).envelope()
        checkIn[Samples.seqOffset + 7] = 0
        #expect(throws: DecodeError.self) { try Delta.decode(envelope: checkIn) }
    }

    @Test func revocationCarriesAtMostItsLimitOfSealedKeys() {
        var writer = ByteWriter()
        writer.writeRaw(Samples.other.bytes)
        writer.write(UInt64(1))
        writer.write(UInt64(1))
        writer.writeVarint(UInt64(RevokePayload.maxSealedKeys + 1))
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .revoke, bytes: writer.bytes) }
    }

    @Test func headerLayoutIsFixed() {
        let delta = Samples.delta(Samples.bodies[0], seq: 0x0102, hlc: HLC(packed: 0x0A0B))
        let envelope = delta.envelope()
        #expect(Array(envelope[2..<18]) == Samples.venue.bytes)
        #expect(Array(envelope[18..<50]) == Samples.author.bytes)
        #expect(Array(envelope[Samples.seqOffset..<Samples.seqOffset + 8]) == [0, 0, 0, 0, 0, 0, 1, 2])
        #expect(Array(envelope[Samples.hlcOffset..<Samples.hlcOffset + 8]) == [0, 0, 0, 0, 0, 0, 0x0A, 0x0B])
    }

    @Test func unknownKindIsRejected() {
        var envelope = Samples.delta(Samples.bodies[0]).envelope()
        for kind: UInt8 in [0, 0x7F, 0xFF] {
            envelope[1] = kind
            #expect(
                thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) }) == .unknownKind(kind)
            )
        }
    }

    @Test func wrongVersionIsRejected() {
        var envelope = Samples.delta(Samples.bodies[0]).envelope()
        for version: UInt8 in [0, 2] {
            envelope[0] = version
            #expect(
                thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) })
                    == .unsupportedVersion(version)
            )
        }
    }

    @Test func everyTruncationIsRejected() {
        for body in Samples.bodies {
            let envelope = Samples.delta(body).envelope()
            for length in 0..<envelope.count {
                let cut = Array(envelope.prefix(length))
                #expect(
                    thrownError({ () throws(DecodeError) in try Delta.decode(envelope: cut) }) != nil,
                    "\(body.kind) cut at \(length) of \(envelope.count) bytes decoded"
                )
            }
        }
    }

    @Test func trailingBytesAfterTheBodyAreRejected() {
        let envelope = Samples.delta(Samples.bodies[0]).envelope() + [0]
        #expect(
            thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) }) == .trailingBytes(count: 1)
        )
    }

    @Test func trailingBytesInsideTheBodyAreRejected() {
        // A valid campaign body with one extra byte, wrapped in a correctly sized blob.
        let body = Samples.bodies[0].encode() + [0x00]
        var envelope = Array(Samples.delta(Samples.bodies[0]).envelope().prefix(Samples.bodyOffset))
        var writer = ByteWriter()
        writer.writeBlob(body)
        envelope += writer.bytes
        #expect(
            thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) }) == .trailingBytes(count: 1)
        )
    }

    @Test func bodyOfTheWrongKindIsRejected() {
        // A note's body declared as an undo does not decode.
        var envelope = Samples.delta(.note(NotePayload(campaignID: "c", attendeeKey: "k", text: "t"))).envelope()
        envelope[1] = DeltaKind.undo.rawValue
        #expect(thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) }) != nil)
    }

    @Test func seqZeroIsRejected() {
        var envelope = Samples.delta(Samples.bodies[0], seq: 1).envelope()
        #expect(envelope[Samples.seqOffset + 7] == 1)
        envelope[Samples.seqOffset + 7] = 0
        guard
            case .invalidValue(at: Samples.seqOffset, _) = thrownError({ () throws(DecodeError) in
                try Delta.decode(envelope: envelope)
            })
        else {
            Issue.record("seq 0 was accepted")
            return
        }
        // SignedDelta only checks the shape, but its decode refuses the same bytes.
        let signed = try? SignedDelta(envelope: envelope, signature: [UInt8](repeating: 0, count: 64))
        #expect(signed?.seq == 0)
        #expect((try? signed?.decode()) == nil)
    }

    @Test func bodyLargerThanTheLimitIsRejected() {
        let big = String(repeating: "n", count: 4_000)
        let body = DeltaBody.registration(
            RegistrationPayload(
                presence: PresencePayload(
                    campaignID: "c",
                    attendeeKey: big,
                    kioskName: "k",
                    location: "l",
                    memberStatus: "s"
                ),
                email: big,
                firstName: big,
                lastName: big,
                company: big,
                ticket: "W-1"
            )
        )
        #expect(body.encode().count > Limits.maxBodyBytes)
        let envelope = Samples.delta(body).envelope()
        #expect(thrownError({ () throws(DecodeError) in try Delta.decode(envelope: envelope) }) != nil)
        #expect(
            thrownError({ () throws(DecodeError) in
                try SignedDelta(envelope: envelope, signature: [UInt8](repeating: 0, count: 64))
            }) != nil
        )
    }
}

@Suite("SignedDelta")
struct SignedDeltaTests {
    static let signature = (0..<64).map { UInt8($0) }

    @Test(arguments: Samples.bodies)
    func headerAccessorsAgreeWithTheDecodedDelta(body: DeltaBody) throws {
        let prev = (0..<32).map { UInt8(255 - $0) }
        let delta = Samples.delta(
            body,
            seq: 0x0102_0304_0506,
            prev: prev,
            hlc: HLC(physicalMillis: 1_750_000_000_999, logical: 65_535)
        )
        let signed = try SignedDelta(envelope: delta.envelope(), signature: Self.signature)
        let decoded = try signed.decode()
        #expect(decoded == delta)
        #expect(signed.author == decoded.author)
        #expect(signed.seq == decoded.seq)
        #expect(signed.prev == decoded.prev)
        #expect(signed.hlc == decoded.hlc)
        #expect(signed.kind == decoded.kind)
        #expect(signed.venue == decoded.venue)
        #expect(signed.ref == decoded.ref)
        #expect(signed.ref == DeltaRef(author: Samples.author, seq: body.kind == .enroll ? 0 : 0x0102_0304_0506))
    }

    @Test func shapeIsCheckedOnConstruction() {
        let envelope = Samples.delta(Samples.bodies[0]).envelope()
        func shapeError(_ envelope: [UInt8], _ signature: [UInt8] = SignedDeltaTests.signature) -> DecodeError? {
            thrownError { () throws(DecodeError) in try SignedDelta(envelope: envelope, signature: signature) }
        }
        #expect(shapeError(envelope) == nil)
        #expect(shapeError(envelope, Array(Self.signature.prefix(63))) != nil)
        #expect(shapeError(envelope, Self.signature + [0]) != nil)
        #expect(shapeError(Array(envelope.prefix(Samples.bodyOffset))) != nil)
        #expect(shapeError([]) != nil)
        var badVersion = envelope
        badVersion[0] = 2
        #expect(shapeError(badVersion) == .unsupportedVersion(2))
        var badKind = envelope
        badKind[1] = 0
        #expect(shapeError(badKind) == .unknownKind(0))
    }
}
