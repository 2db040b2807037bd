import Testing

@testable import MusterCore

/// The screen's language on the organizer's lock (issue 14): an optional tagged tail after the door
/// rules, so every lock without it keeps its bytes, its signature and its digest.
@Suite("Lock language")
struct LockLanguageTests {
    static let rules = DoorRules(zones: [ZoneRule(name: "Hall A", capacity: 3)], entries: .once, reEntry: false)

    /// The lock's bytes as the encoder before this field wrote them, field by field.
    static func previousBytes(rules: DoorRules?) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(UInt64(7))
        writer.write("camp" as String?)
        writer.write("Attended")
        writer.write(Int64(100) as Int64?)
        writer.write(nil as Int64?)
        if let rules {
            // Rules without door lists: version 1, then the rules.
            writer.write(UInt8(1))
            writer.writeList(rules.zones)
            writer.write(rules.entries, rules.reEntry)
        }
        return writer.bytes
    }

    /// The lock decoder of the release before this field (door rules only), as an older kiosk runs it.
    static func previousDecoder(_ bytes: [UInt8]) throws(DecodeError) -> DoorRules? {
        var reader = ByteReader(bytes)
        _ = try reader.readUInt64()
        _ = try reader.readOptionalString(maxLength: 64)
        _ = try reader.readString(maxLength: 128)
        _ = try reader.readOptionalInt64()
        _ = try reader.readOptionalInt64()
        var rules: DoorRules?
        if !reader.isAtEnd {
            let version = try reader.readUInt8()
            guard version == 1 else { throw .unsupportedVersion(version) }
            rules = try DoorRules(version: version, from: &reader)
        }
        try reader.expectEnd()
        return rules
    }

    static func lock(rules: DoorRules?, language: String?) -> LockPayload {
        LockPayload(
            version: 7,
            campaignID: "camp",
            checkInStatus: "Attended",
            opensAtMillis: 100,
            rules: rules,
            language: language
        )
    }

    @Test(arguments: [nil, LockLanguageTests.rules])
    func aLockWithoutALanguageKeepsItsBytes(rules: DoorRules?) throws {
        let body = DeltaBody.lock(Self.lock(rules: rules, language: nil))
        #expect(body.encode() == Self.previousBytes(rules: rules), "the same bytes, so the same signature")
        #expect(try DeltaBody.decode(kind: .lock, bytes: Self.previousBytes(rules: rules)) == body)
    }

    @Test(arguments: [nil, LockLanguageTests.rules])
    func theLanguageRoundTrips(rules: DoorRules?) throws {
        let body = DeltaBody.lock(Self.lock(rules: rules, language: "de"))
        let bytes = body.encode()
        #expect(Array(bytes.prefix(Self.previousBytes(rules: rules).count)) == Self.previousBytes(rules: rules))
        #expect(Array(bytes.suffix(4)) == [LockPayload.languageTag, 2, UInt8(ascii: "d"), UInt8(ascii: "e")])
        let decoded = try DeltaBody.decode(kind: .lock, bytes: bytes)
        #expect(decoded == body)
        guard case .lock(let lock) = decoded else {
            Issue.record("not a lock")
            return
        }
        #expect(lock.language == "de" && lock.rules == rules)
    }

    @Test(arguments: [nil, LockLanguageTests.rules])
    func anOlderKioskRefusesALockWithALanguageRatherThanMisreadIt(rules: DoorRules?) throws {
        #expect(try Self.previousDecoder(Self.previousBytes(rules: rules)) == rules)
        let bytes = DeltaBody.lock(Self.lock(rules: rules, language: "fr")).encode()
        let error = #expect(throws: DecodeError.self) { try Self.previousDecoder(bytes) }
        if rules == nil {
            #expect(error == .unsupportedVersion(LockPayload.languageTag))
        } else {
            #expect(error == .trailingBytes(count: 4))
        }
    }

    @Test func onlyLanguageCodesAreAccepted() throws {
        for code in ["en", "pl", "deu"] { #expect(LockPayload.isLanguageCode(code), "\(code)") }
        for code in ["", "e", "EN", "english", "d1", "dé", "e\u{1B}"] {
            #expect(!LockPayload.isLanguageCode(code), "\(code)")
        }
        for code in ["EN", "x", "e\u{0}"] {
            let bytes = DeltaBody.lock(Self.lock(rules: nil, language: code)).encode()
            #expect(throws: DecodeError.self, "\(code)") { try DeltaBody.decode(kind: .lock, bytes: bytes) }
        }
        let tooLong = DeltaBody.lock(Self.lock(rules: nil, language: "engl")).encode()
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .lock, bytes: tooLong) }
    }

    @Test func theTailIsCanonical() throws {
        // Language before rules, an unknown tag, and bytes after the language are all refused.
        var writer = ByteWriter()
        writer.writeRaw(Self.previousBytes(rules: nil))
        writer.write(LockPayload.languageTag)
        writer.write("de")
        let languageFirst = writer.bytes
        var withRulesAfter = ByteWriter()
        withRulesAfter.writeRaw(languageFirst)
        Self.rules.encode(into: &withRulesAfter)
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .lock, bytes: withRulesAfter.bytes) }
        #expect(throws: DecodeError.self) { try DeltaBody.decode(kind: .lock, bytes: languageFirst + [0]) }
        #expect(throws: DecodeError.self) {
            try DeltaBody.decode(kind: .lock, bytes: Self.previousBytes(rules: nil) + [0x4D, 2, 0x64, 0x65])
        }
        #expect(throws: DecodeError.self) {
            try DeltaBody.decode(kind: .lock, bytes: Self.previousBytes(rules: nil) + [LockPayload.languageTag])
        }
    }
}
