import Foundation
import MusterCore
import MusterCrypto
import MusterSync
import MusterTestSupport
import Testing

@testable import MusterRules

extension SecurityEndToEndTests {
    /// SECURITY.md, "Kiosk statuses": an enrolled kiosk's key (the real protocol, a real session with
    /// k1) sends a status it forged for k2, one of a stranger's key, one signed for another venue, and
    /// a later one of k2's that k2 never signed; then its own, honestly. `muster fleet` on k1 and on
    /// k2 (k1 relays) shows the honest status and nothing of the others: k2's entry is still k2's own.
    @Test("a kiosk key cannot make the fleet show a status another kiosk did not sign")
    func forgedStatusesNeverReachTheFleet() throws {
        let venue = try Venue()
        let (insider, certificate) = try venue.insider("liar")
        let peer = try venue.session(insider, certificate)
        let k2Key = try #require(try venue.k2.status()["kioskKey"] as? String)
        let k2 = try #require(try SigningPublicKey(hex: k2Key))
        let now = Venue.nowMillis + 60_000
        let forged = KioskStatus(
            kiosk: AuthorID(k2),
            printer: "forged: out of labels",
            freeDiskBytes: 1,
            signedMillis: now
        )
        let stranger = try SigningKeyPair.generate()
        let strangers = KioskStatus(
            kiosk: AuthorID(stranger.publicKey),
            printer: "stranger",
            freeDiskBytes: 2,
            signedMillis: now
        )
        let elsewhere = VenueID.random()
        let own = KioskStatus(
            kiosk: AuthorID(insider.publicKey),
            printer: "honest desk",
            freeDiskBytes: 42,
            signedMillis: now
        )
        try peer.send(
            .status([
                forged.signed(by: insider, venue: venue.joined.venue),
                strangers.signed(by: stranger, venue: venue.joined.venue),
                own.signed(by: insider, venue: elsewhere),
            ])
        )
        // A status of k2's, signed by k2's key over another status's bytes: the signature does not match.
        var lie = forged.signed(by: insider, venue: venue.joined.venue)
        let genuine = KioskStatus(kiosk: AuthorID(k2), printer: "k2", freeDiskBytes: 3, signedMillis: now)
        lie = SignedKioskStatus(
            body: lie.body,
            signature: genuine.signed(by: insider, venue: venue.joined.venue).signature
        )
        try peer.send(.status([lie]))
        // The honest status after the hostile ones: if it arrives, the others had their chance.
        try peer.send(.status([own.signed(by: insider, venue: venue.joined.venue)]))

        for kiosk in [venue.k1, venue.k2] {
            try waitUntil("the honest status reaches the kiosk's fleet", timeout: 20) {
                FleetEndToEndTests.entry(try FleetEndToEndTests.fleet(kiosk), "liar")?["status"] != nil
            }
            let fleet = try FleetEndToEndTests.fleet(kiosk)
            let liar = try #require(FleetEndToEndTests.entry(fleet, "liar")?["status"] as? [String: Any])
            #expect(liar["printer"] as? String == "honest desk" && liar["freeDiskBytes"] as? Int == 42)
            let k2Status = FleetEndToEndTests.entry(fleet, "k2")?["status"] as? [String: Any]
            #expect(
                k2Status?["printer"] as? String != "forged: out of labels",
                "k2's status is k2's own: \(k2Status ?? [:])"
            )
            #expect(k2Status?["freeDiskBytes"] as? Int != 1)
            #expect(!fleet.contains { ($0["status"] as? [String: Any])?["printer"] as? String == "stranger" })
            #expect(fleet.count == 3, "k1, k2 and the liar; no stranger: \(fleet.map { $0["name"] ?? "?" })")
        }
    }
}
