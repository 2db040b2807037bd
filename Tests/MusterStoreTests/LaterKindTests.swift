import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// A delta of a kind a later version added (kind 200 here) reaching this version: the store refuses it with words that say why, stores
/// nothing of it or of what its author chained on it, and everything else goes on.
@Suite struct LaterKindTests {
    /// Kiosk A's next delta after `previous`, of raw kind `kind`, as a later version would sign it.
    static func laterKind(
        _ kind: UInt8,
        after previous: SignedDelta,
        key: SigningKeyPair,
        venue: VenueID
    ) throws
        -> SignedDelta
    {
        var writer = ByteWriter()
        writer.write(Delta.encodingVersion)
        writer.write(kind)
        writer.writeRaw(venue.bytes)
        writer.writeRaw(previous.author.bytes)
        writer.write(previous.seq + 1)
        writer.writeRaw(Blake2b.hash256(previous.envelope))
        writer.write(HLC(physicalMillis: previous.hlc.physicalMillis + 1_000, logical: 0).packed)
        writer.writeBlob([1, 2, 3])
        return try SignedDelta(envelope: writer.bytes, signature: key.sign(writer.bytes))
    }

    /// A note chained on `previous` by its author.
    static func note(after previous: SignedDelta, key: SigningKeyPair, venue: TestVenue) throws -> SignedDelta {
        var signer = DeltaSigner(
            venue: venue.policy.venue,
            keyPair: key,
            head: AuthorHead(author: previous.author, seq: previous.seq, hash: Blake2b.hash256(previous.envelope))
        )
        return try signer.sign(
            .note(NotePayload(campaignID: ScenarioLog.campaign, attendeeKey: ScenarioLog.key(1), text: "hi")),
            hlc: HLC(physicalMillis: previous.hlc.physicalMillis + 1_000, logical: 0)
        )
    }

    @Test func theFrameDecodesAndTheStoreRefusesWhatItCannotRead() throws {
        try withScenarioLog { (log, replica, _) throws in
            let venue = log.venue
            #expect(try replica.ingestAtTestTime(log.all).rejected.isEmpty)
            let before = try replica.digest()

            let previous = try #require(log.deltas(of: venue.kioskA).last)
            let later = try Self.laterKind(200, after: previous, key: venue.kioskAKey, venue: venue.policy.venue)
            #expect(later.kind == nil && later.rawKind == 200)
            #expect(throws: DecodeError.self) { try later.decode() }

            let chained = try Self.note(after: later, key: venue.kioskAKey, venue: venue)
            let refused = try replica.ingestAtTestTime([later, chained])
            #expect(refused.applied.isEmpty)
            #expect(refused.rejected.first?.message.contains("later version's") == true, "\(refused.rejected)")
            #expect(try replica.head(of: venue.kioskA).seq == previous.seq)
            #expect(try replica.digest() == before)

            // Another author's next delta after the refusal is stored as ever.
            let lastB = try #require(log.deltas(of: venue.kioskB).last)
            let honest = try Self.note(after: lastB, key: venue.kioskBKey, venue: venue)
            #expect(try replica.ingestAtTestTime([honest]).applied.map(\.ref) == [honest.ref])
        }
    }
}
