import Foundation
import MusterCore
import MusterCrypto
import Testing

@testable import MusterRules

/// A kiosk's status: signed by its own key for its venue, and nothing else passes for it.
struct KioskStatusTests {
    let venue = VenueID.random()

    @Test func aSignedStatusVerifiesOnlyForItsKioskAndVenue() throws {
        let key = try SigningKeyPair.generate()
        let status = KioskStatus(
            kiosk: AuthorID(key.publicKey),
            printer: "desk: ready",
            freeDiskBytes: 5,
            signedMillis: 7
        )
        let signed = status.signed(by: key, venue: venue)
        #expect(signed.verified(venue: venue) == status)
        #expect(signed.verified(venue: VenueID.random()) == nil, "another venue's")

        let thief = try SigningKeyPair.generate()
        #expect(status.signed(by: thief, venue: venue).verified(venue: venue) == nil, "signed by another key")

        var body = signed.body
        body[body.count - 1] ^= 1
        var writer = ByteWriter()
        writer.writeBlob(body)
        writer.writeBlob(signed.signature)
        var reader = ByteReader(writer.bytes)
        let tampered = try SignedKioskStatus(from: &reader)
        #expect(tampered.verified(venue: venue) == nil, "a byte changed")
    }

    /// What a status-less kiosk is taken to read, and what a lock needs.
    @Test func unreadableFeaturesAreThoseTheKioskDidNotSay() {
        #expect(KioskStatus.unreadable(["door-rules-v2", "screen-language"], by: nil).isEmpty)
        #expect(KioskStatus.unreadable(["ticket-types"], by: nil) == ["ticket-types"])
        #expect(KioskStatus.unreadable(["door-rules-v2"], by: ["door-rules-v1"]) == ["door-rules-v2"])
        #expect(Set(KioskStatus.silentLockFeatures).isSubset(of: LockPayload.readableFeatures))
        let lock = LockPayload(
            version: 1,
            campaignID: "c",
            checkInStatus: "Attended",
            rules: DoorRules(zones: [ZoneRule(name: "Hall")]),
            language: "de"
        )
        #expect(lock.features == ["door-rules-v1", "screen-language"])
        #expect(LockPayload(version: 2, campaignID: nil, checkInStatus: "").features.isEmpty)
    }

    /// The version the status reports is the package's (`packaging/changelog`'s first entry).
    @Test func theSoftwareVersionIsThePackages() throws {
        let changelog = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("packaging/changelog")
        let first = try String(contentsOf: changelog, encoding: .utf8).split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("muster (\(KioskStatus.software)-"), "\(first)")
    }
}
