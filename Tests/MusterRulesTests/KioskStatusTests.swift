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

    /// A status is sent when it says something new, or at the refresh: not every time it is taken.
    @Test func aStatusIsNewsWhenItChangedOrAtTheRefresh() throws {
        let kiosk = try #require(AuthorID(bytes: [UInt8](repeating: 7, count: 32)))
        let sent = KioskStatus(kiosk: kiosk, printer: "desk: idle", freeDiskBytes: 3_200_000, signedMillis: 1_000_000)
        func taken(_ change: (inout KioskStatus) -> Void) -> KioskStatus {
            var status = sent
            status.signedMillis += 30_000
            change(&status)
            return status
        }
        let refresh: UInt64 = 300_000
        #expect(sent.isNews(after: KioskStatus?.none, refreshMillis: refresh), "the first")
        #expect(!taken { _ in }.isNews(after: sent, refreshMillis: refresh), "the same, 30 s later")
        #expect(taken { $0.printer = "desk: stopped (Media empty)" }.isNews(after: sent, refreshMillis: refresh))
        #expect(taken { $0.software = "0.6.8" }.isNews(after: sent, refreshMillis: refresh))
        #expect(taken { $0.kinds.removeLast() }.isNews(after: sent, refreshMillis: refresh))
        #expect(taken { $0.lockFeatures.append("later") }.isNews(after: sent, refreshMillis: refresh))
        #expect(!taken { $0.freeDiskBytes -= 99_999 }.isNews(after: sent, refreshMillis: refresh), "under 1/32")
        #expect(taken { $0.freeDiskBytes -= 100_000 }.isNews(after: sent, refreshMillis: refresh), "1/32 less")
        #expect(taken { $0.freeDiskBytes += 100_000 }.isNews(after: sent, refreshMillis: refresh), "1/32 more")
        #expect(taken { $0.freeDiskBytes = 0 }.isNews(after: sent, refreshMillis: refresh), "the disk cannot be read")
        var empty = sent
        empty.freeDiskBytes = 0
        #expect(!taken { $0.freeDiskBytes = 0 }.isNews(after: empty, refreshMillis: refresh), "still unreadable")
        #expect(taken { $0.freeDiskBytes = 1 }.isNews(after: empty, refreshMillis: refresh), "readable again")
        #expect(
            !taken { $0.signedMillis = sent.signedMillis + refresh - 1 }.isNews(after: sent, refreshMillis: refresh)
        )
        #expect(taken { $0.signedMillis = sent.signedMillis + refresh }.isNews(after: sent, refreshMillis: refresh))
        #expect(
            taken { $0.signedMillis = sent.signedMillis - 1 }.isNews(after: sent, refreshMillis: refresh),
            "clock back"
        )
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
