import MusterTestSupport
import Testing

@testable import MusterCore

@Suite("Door rules and scan records")
struct DoorRulesTests {
    /// The bytes of a lock as written before door rules existed, field by field.
    private func legacyLockBytes() -> [UInt8] { LockLanguageTests.previousBytes(rules: nil) }

    @Test func aLockWithoutRulesEncodesAsBeforeAndOldLocksDecode() throws {
        let old = try DeltaBody.decode(kind: .lock, bytes: legacyLockBytes())
        guard case .lock(let lock) = old else {
            Issue.record("not a lock")
            return
        }
        #expect(lock.rules == nil)
        #expect(lock.version == 7 && lock.opensAtMillis == 100)
        #expect(old.encode() == legacyLockBytes(), "re-encoding an old lock gives its exact bytes")
    }

    @Test func rulesRoundTrip() throws {
        let rules = DoorRules(
            zones: [
                ZoneRule(name: "Hall A", capacity: 3), ZoneRule(name: "Annex", exclusive: true, closesAtMillis: 9),
            ],
            entries: .perDay(2),
            reEntry: false
        )
        let body = DeltaBody.lock(LockPayload(version: 2, campaignID: "c", rules: rules))
        let decoded = try DeltaBody.decode(kind: .lock, bytes: body.encode())
        #expect(decoded == body)
        #expect(rules.zone(named: "Annex")?.exclusive == true)
        #expect(rules.zone(named: "annex") == nil, "zones are named exactly as on the certificates")
    }

    @Test func anUnknownRulesVersionIsRefused() {
        let bytes = legacyLockBytes() + [4]
        #expect(
            thrownError({ () throws(DecodeError) in try DeltaBody.decode(kind: .lock, bytes: bytes) })
                == .unsupportedVersion(4)
        )
    }

    static func key(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }

    /// Escrow door lists (issue 32) travel as rules version 2; rules without one keep version 1's bytes.
    @Test func doorListsRoundTripAsVersionTwoAndOnlyThen() throws {
        let plain = DoorRules(zones: [ZoneRule(name: "Lab", capacity: 10, escrow: true)])
        var writer = ByteWriter()
        plain.encode(into: &writer)
        #expect(writer.bytes.first == 1, "no door list: version 1, as every lock before")
        var listed = plain
        listed.zones[0].doors = [Self.key(1), Self.key(2)]
        let body = DeltaBody.lock(LockPayload(version: 2, campaignID: "c", rules: listed, language: "de"))
        let bytes = body.encode()
        #expect(try DeltaBody.decode(kind: .lock, bytes: bytes) == body)
        // An older kiosk (rules version 1 only) refuses it rather than split over its own roster.
        #expect(
            thrownError({ () throws(DecodeError) in try LockLanguageTests.previousDecoder(bytes) })
                == .unsupportedVersion(2)
        )
    }

    @Test func aDoorListIsOnEscrowZonesOnlyAndAscending() {
        func decode(_ zone: ZoneRule) -> DecodeError? {
            var writer = ByteWriter()
            DoorRules(zones: [zone]).encode(into: &writer)
            var reader = ByteReader(writer.bytes)
            return thrownError({ () throws(DecodeError) in _ = try DoorRules(from: &reader) })
        }
        #expect(decode(ZoneRule(name: "Lab", capacity: 4, escrow: true, doors: [Self.key(1), Self.key(2)])) == nil)
        #expect(decode(ZoneRule(name: "Lab", capacity: 4, escrow: false, doors: [Self.key(1)])) != nil)
        #expect(decode(ZoneRule(name: "Lab", capacity: 4, escrow: true, doors: [Self.key(2), Self.key(1)])) != nil)
        #expect(decode(ZoneRule(name: "Lab", capacity: 4, escrow: true, doors: [Self.key(1), Self.key(1)])) != nil)
    }

    @Test func aZoneNamedTwiceIsRefused() {
        var writer = ByteWriter()
        let rules = DoorRules(zones: [ZoneRule(name: "Hall"), ZoneRule(name: "Hall", capacity: 1)])
        rules.encode(into: &writer)
        var reader = ByteReader(writer.bytes)
        #expect(throws: DecodeError.self) { try DoorRules(from: &reader) }
    }

    @Test func zeroEntriesPerDayIsRefused() {
        var writer = ByteWriter()
        DoorRules(entries: .perDay(0)).encode(into: &writer)
        var reader = ByteReader(writer.bytes)
        #expect(throws: DecodeError.self) { try DoorRules(from: &reader) }
    }

    @Test func onlyNotFoundScansAreAggregated() throws {
        let aggregated = ScanPayload(campaignID: "", attendeeKey: "", reason: .notFound, count: 40, atMillis: 60_000)
        #expect(try DeltaBody.decode(kind: .scan, bytes: DeltaBody.scan(aggregated).encode()) == .scan(aggregated))
        let wrong = ScanPayload(campaignID: "c", attendeeKey: "a@b.c", reason: .zoneFull, count: 2, atMillis: 1)
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .scan, bytes: DeltaBody.scan(wrong).encode()) }
        let none = ScanPayload(campaignID: "", attendeeKey: "", reason: .notFound, count: 0, atMillis: 1)
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .scan, bytes: DeltaBody.scan(none).encode()) }
    }

    @Test func everyReasonHasAStableCode() {
        let codes = DoorReason.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(DoorReason(code: "zone_full") == .zoneFull)
        #expect(DoorReason(code: "zone full") == nil)
        #expect(DoorReason.reEntryRefused.rawValue == 7, "raw values are part of the signed encoding")
    }

    @Test func aCheckInThatEndsNothingEncodesAsBefore() throws {
        let presence = PresencePayload(
            campaignID: "c",
            attendeeKey: "a@b.c",
            kioskName: "k",
            location: "Hall",
            memberStatus: "Attended"
        )
        var writer = ByteWriter()
        presence.encode(into: &writer)
        #expect(DeltaBody.checkIn(CheckInPayload(presence)).encode() == writer.bytes)
        let moving = DeltaBody.checkIn(CheckInPayload(presence, ends: [DeltaRef(author: Samples.other, seq: 3)]))
        #expect(try DeltaBody.decode(kind: .checkIn, bytes: moving.encode()) == moving)
    }
}
