import MusterTestSupport
import Testing

@testable import MusterCore

/// The ticket details of issue 35 in the signed encoding: an attendee without them keeps its bytes,
/// one with them is refused by an older decoder rather than misread, and a zone's ticket types travel
/// as door rules version 3.
@Suite("Attendee details and ticket types")
struct AttendeeDetailsTests {
    static func payload(_ details: AttendeeDetails?) -> AttendeePayload {
        AttendeePayload(
            campaignID: "camp",
            key: "ada@x.org",
            email: "Ada@x.org",
            firstName: "Ada",
            lastName: "L",
            company: "",
            ticket: "T1",
            salesforceID: nil,
            status: nil,
            admitted: true,
            details: details
        )
    }

    /// The attendee decoder of the release before details, as an older kiosk runs it.
    static func previousDecoder(_ bytes: [UInt8]) throws(DecodeError) {
        var reader = ByteReader(bytes)
        _ = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        for _ in 0..<5 { _ = try reader.read(String.self) }
        for _ in 0..<3 { _ = try reader.read(String?.self) }
        _ = try reader.readBool()
        try reader.expectEnd()
    }

    static let full = AttendeeDetails(
        ticketType: "VIP – Friday",
        order: "ABC12",
        addons: ["T-shirt", "Dinner"],
        attention: true,
        attentionText: "Greet: keynote speaker",
        validFromMillis: 1_000,
        validUntilMillis: 2_000
    )

    @Test func anAttendeeWithoutDetailsKeepsItsBytes() throws {
        let bytes = DeltaBody.attendee(Self.payload(nil)).encode()
        #expect(throws: Never.self) { try Self.previousDecoder(bytes) }
        #expect(try DeltaBody.decode(kind: .attendee, bytes: bytes) == .attendee(Self.payload(nil)))
        #expect(Self.payload(AttendeeDetails()).details == nil, "empty details are no details")
    }

    @Test func detailsRoundTripAndAnOlderKioskRefusesThem() throws {
        let body = DeltaBody.attendee(Self.payload(Self.full))
        let bytes = body.encode()
        #expect(try DeltaBody.decode(kind: .attendee, bytes: bytes) == body)
        let refusal = thrownError { () throws(DecodeError) in try Self.previousDecoder(bytes) }
        guard case .trailingBytes? = refusal else {
            Issue.record("an older kiosk read details as something else: \(String(describing: refusal))")
            return
        }
    }

    @Test func oneEncodingPerDetails() {
        func decode(_ mutate: (inout [UInt8]) -> Void, _ details: AttendeeDetails) -> DecodeError? {
            var writer = ByteWriter()
            details.encode(into: &writer)
            var bytes = writer.bytes
            mutate(&bytes)
            var reader = ByteReader(bytes)
            return thrownError { () throws(DecodeError) in _ = try AttendeeDetails(from: &reader) }
        }
        #expect(decode({ _ in }, Self.full) == nil)
        #expect(decode({ _ in }, AttendeeDetails()) != nil, "empty details are not written")
        #expect(decode({ _ in }, AttendeeDetails(addons: ["Dinner", "Dinner"])) != nil, "an add-on once")
        #expect(decode({ _ in }, AttendeeDetails(validFromMillis: 5, validUntilMillis: 5)) != nil)
        #expect(decode({ $0[0] = 2 }, Self.full) == .unsupportedVersion(2))
        // A tail after the attendee that is not the details tag is an unknown version, not details.
        var bytes = DeltaBody.attendee(Self.payload(Self.full)).encode()
        let tag = bytes.firstIndex(of: AttendeePayload.detailsTag)!
        bytes[tag] = 0x45
        #expect(
            thrownError { () throws(DecodeError) in try DeltaBody.decode(kind: .attendee, bytes: bytes) }
                == .unsupportedVersion(0x45)
        )
    }

    @Test func validityIsHalfOpen() {
        #expect(!Self.full.isValid(atMillis: 999))
        #expect(Self.full.isValid(atMillis: 1_000))
        #expect(Self.full.isValid(atMillis: 1_999))
        #expect(!Self.full.isValid(atMillis: 2_000))
        #expect(AttendeeDetails(ticketType: "x").isValid(atMillis: 0))
    }

    @Test func aZoneAdmitsItsTypesTheirVariationsAndNothingElse() {
        let zone = ZoneRule(name: "VIP", types: ["VIP", "Speaker"])
        #expect(zone.admits(ticketType: "vip"))
        #expect(zone.admits(ticketType: "VIP – Friday"))
        #expect(!zone.admits(ticketType: "VIPER"))
        #expect(!zone.admits(ticketType: "General"))
        #expect(!zone.admits(ticketType: nil))
        #expect(ZoneRule(name: "Hall").admits(ticketType: nil))
    }

    @Test func typesTravelAsRulesVersionThreeAndOnlyThen() throws {
        var rules = DoorRules(zones: [ZoneRule(name: "VIP", capacity: 5), ZoneRule(name: "Hall")])
        #expect(rules.encodingVersion == 1)
        rules.zones[0].types = ["VIP"]
        #expect(rules.encodingVersion == 3)
        let body = DeltaBody.lock(LockPayload(version: 3, campaignID: "c", rules: rules, language: "de"))
        #expect(try DeltaBody.decode(kind: .lock, bytes: body.encode()) == body)
        #expect(LockPayload(version: 3, campaignID: "c", rules: rules).features == ["door-rules-v3"])
        // A kiosk that reads rules up to version 2 refuses it as an unknown version.
        #expect(
            thrownError({ () throws(DecodeError) in try LockLanguageTests.previousDecoder(body.encode()) })
                == .unsupportedVersion(3)
        )
        // Version 3 without any types or add-on desks is a second encoding of version 1: refused.
        var writer = ByteWriter()
        DoorRules(zones: [ZoneRule(name: "Hall")]).encode(into: &writer)
        var bytes = writer.bytes
        bytes[0] = 3
        bytes += [0, 0, 0]
        var reader = ByteReader(bytes)
        #expect(thrownError({ () throws(DecodeError) in _ = try DoorRules(from: &reader) }) != nil)
    }
}
