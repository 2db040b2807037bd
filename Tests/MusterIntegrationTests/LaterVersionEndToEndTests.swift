import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync
import Testing

/// A kiosk of a later version speaking to this one (issue 37, kiosks of two versions): a real kiosk
/// key, the real protocol, two real musterd processes. A message of a later version and a delta of a
/// later kind neither close the session nor change anything; the later kiosk's own chain waits at
/// that delta, and an honest check-in it relays afterwards reaches both kiosks.
@Suite("A later version's messages and kinds", .serialized)
struct LaterVersionEndToEndTests {
    /// Seq 1 of `key`'s log, of raw kind `kind`, as a later version would sign it.
    static func laterKind(_ kind: UInt8, key: SigningKeyPair, venue: VenueID) throws -> SignedDelta {
        var writer = ByteWriter()
        writer.write(Delta.encodingVersion)
        writer.write(kind)
        writer.writeRaw(venue.bytes)
        writer.writeRaw(AuthorID(key.publicKey).bytes)
        writer.write(UInt64(1))
        writer.writeRaw(Delta.genesisPrev)
        writer.write(HLC(physicalMillis: SecurityEndToEndTests.Venue.nowMillis, logical: 0).packed)
        writer.writeBlob([7, 7, 7])
        return try SignedDelta(envelope: writer.bytes, signature: key.sign(writer.bytes))
    }

    @Test(
        "an unknown message and a later kind keep the session; the later kiosk's chain waits, a relayed check-in arrives"
    )
    func laterMessagesAndKinds() throws {
        let venue = try SecurityEndToEndTests.Venue()
        let (later, certificate) = try venue.insider("later")
        let peer = try venue.session(later, certificate)
        let before = try venue.digests()

        try peer.send(.unknown(tag: 99, body: [1, 2, 3]))
        try peer.send(.deltas([try Self.laterKind(200, key: later, venue: venue.joined.venue)]))

        // Another enrolled kiosk's honest check-in, relayed by the later kiosk on the same session.
        let (other, otherCertificate) = try venue.insider("other")
        try peer.send(.roster([otherCertificate]))
        var signer = DeltaSigner(venue: venue.joined.venue, startingLogOf: other)
        try peer.send(.deltas([try venue.checkIn("MUS-0003", signer: &signer)]))
        try waitUntil("the relayed check-in reaches k1 and k2", timeout: 20) {
            try [venue.k1, venue.k2].allSatisfy { try $0.status()["checkedIn"] as? Int == 1 }
        }
        let k1Peers = try venue.k1.status()["peers"] as? [String] ?? []
        #expect(k1Peers.contains { $0.hasPrefix(later.publicKey.hex) }, "the later kiosk's session is open: \(k1Peers)")
        for kiosk in [venue.k1, venue.k2] {
            #expect(try venue.replica(kiosk).head(of: AuthorID(later.publicKey)).seq == 0, "nothing of the later kind")
        }
        #expect(try venue.digests() != before, "only the relayed check-in changed the state")
        #expect(Set(try venue.digests()).count == 1)
    }
}
