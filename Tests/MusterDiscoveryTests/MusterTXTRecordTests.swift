import Testing

@testable import MusterDiscovery

@Suite("MusterTXTRecord")
struct MusterTXTRecordTests {
    @Test func buildsTheThreeEntriesNormalized() throws {
        let record = try MusterTXTRecord(
            protocolVersion: 1,
            venueID: "00112233445566778899AABBCCDDEEFF",
            fingerprint: "3F2A-91C0-5B7E-0D14"
        )
        #expect(record.entries == ["v=1", "venue=00112233445566778899aabbccddeeff", "fp=3f2a-91c0-5b7e-0d14"])
    }

    @Test func parsesWhatItBuilds() throws {
        let record = try MusterTXTRecord(protocolVersion: 7, venueID: Fixture.venue, fingerprint: "abcd-ef01")
        let parsed = try MusterTXTRecord(entries: record.entries.map { Array($0.utf8) })
        #expect(parsed == record)
    }

    @Test func keysAreCaseInsensitiveAndTheFirstOccurrenceWins() throws {
        let entries = ["V=2", "Venue=\(Fixture.venue)", "FP=abcd", "fp=ffff", "v=9"].map { Array($0.utf8) }
        let parsed = try MusterTXTRecord(entries: entries)
        #expect(parsed.protocolVersion == 2)
        #expect(parsed.fingerprint == "abcd")
    }

    @Test func ignoresUnknownKeysBooleanAttributesAndEmptyKeys() throws {
        let entries = ["future=yes", "flag", "=oops", "v=1", "venue=\(Fixture.venue)", "fp=abcd"].map { Array($0.utf8) }
        #expect(try MusterTXTRecord(entries: entries).fingerprint == "abcd")
    }

    @Test func refusesMissingKeys() {
        #expect(throws: TXTRecordError.missing(key: "v")) { try MusterTXTRecord(entries: [Array("fp=abcd".utf8)]) }
        let noVenue = ["v=1", "fp=abcd"].map { Array($0.utf8) }
        #expect(throws: TXTRecordError.missing(key: "venue")) { try MusterTXTRecord(entries: noVenue) }
        let noFingerprint = ["v=1", "venue=\(Fixture.venue)"].map { Array($0.utf8) }
        #expect(throws: TXTRecordError.missing(key: "fp")) { try MusterTXTRecord(entries: noFingerprint) }
    }

    @Test(arguments: ["", "-1", "+1", "1.0", "x", "123456", "70000", " 1"])
    func refusesMalformedVersions(_ version: String) {
        #expect(throws: TXTRecordError.malformed(key: "v")) {
            try MusterTXTRecord(entries: Fixture.txt(v: version, fp: "abcd"))
        }
    }

    @Test(arguments: ["", "0011", "00112233445566778899aabbccddeeffaa", "zz112233445566778899aabbccddeeff"])
    func refusesMalformedVenues(_ venue: String) {
        #expect(throws: TXTRecordError.malformed(key: "venue")) {
            try MusterTXTRecord(entries: Fixture.txt(venue: venue, fp: "abcd"))
        }
    }

    @Test(arguments: ["", "ab cd", "ab_cd", "é", "\u{1B}[2J", String(repeating: "a", count: 65)])
    func refusesMalformedFingerprints(_ fingerprint: String) {
        #expect(throws: TXTRecordError.malformed(key: "fp")) {
            try MusterTXTRecord(entries: Fixture.txt(fp: fingerprint))
        }
    }

    @Test func refusesControlBytesInsideAValue() {
        var entries = Fixture.txt(fp: "abcd")
        entries[2] = Array("fp=ab".utf8) + [0x00, 0x0A] + Array("cd".utf8)
        #expect(throws: TXTRecordError.malformed(key: "fp")) { try MusterTXTRecord(entries: entries) }
    }

    @Test func configurationIsValidatedBeforeAnythingStarts() {
        func config(
            name: String? = nil,
            port: Int = 7420,
            venue: String = Fixture.venue,
            fp: String = "abcd"
        )
            -> DiscoveryConfiguration
        {
            DiscoveryConfiguration(serviceName: name, port: port, venueID: venue, fingerprint: fp, protocolVersion: 1)
        }
        #expect(throws: Never.self) { try config().validatedRecord() }
        #expect(config().serviceName == "muster-abcd")
        for bad in [
            config(name: ""), config(name: String(repeating: "x", count: 64)), config(port: 0), config(port: 70_000),
            config(venue: "nothex"), config(fp: "has space"),
        ] {
            #expect(throws: DiscoveryError.self) { try bad.validatedRecord() }
        }
    }
}
