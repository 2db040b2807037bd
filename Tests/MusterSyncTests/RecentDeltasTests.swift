import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// The filter that drops relayed copies of deltas already committed, but never a fork.
struct RecentDeltasTests {
    @Test func dropsExactCopiesOnly() throws {
        let key = try SigningKeyPair.generate()
        let log = CoreTestKit.log(4, key: key)
        // The same author and seqs, other contents: a fork of every delta.
        let fork = try CoreTestKit.log(4, key: key).enumerated().map { index, _ in
            var signer = DeltaSigner(venue: CoreTestKit.venue, startingLogOf: key)
            let notes = (0...index).map {
                DeltaBody.note(NotePayload(campaignID: "c", attendeeKey: "b@example.com", text: "fork\($0)"))
            }
            return try signer.sign(notes, fromMillis: 9_000).last!
        }
        var recent = RecentDeltas(capacity: 16)
        recent.insert(Array(log[0..<2]))
        #expect(recent.unseen(log) == Array(log[2...]))
        #expect(recent.unseen(fork) == fork)
    }

    @Test func forgetsTheOldestBeyondCapacity() throws {
        let log = CoreTestKit.log(10, key: try SigningKeyPair.generate())
        var recent = RecentDeltas(capacity: 4)
        recent.insert(log)
        recent.insert(Array(log[8...]))  // already known: does not push anything out
        #expect(recent.unseen(log) == Array(log[0..<6]))
    }

    /// A page is answered from memory only whole and ending on a delta whose own signature was
    /// checked, as the store's pages end (the receiver authenticates a page by its last signature).
    @Test func servesAPageOnlyWholeAndEndingOnACheckedSignature() throws {
        let log = CoreTestKit.log(6, key: try SigningKeyPair.generate())
        let author = log[0].author
        var recent = RecentDeltas(capacity: 16)
        recent.insert(Array(log[0..<4]), signatureChecked: [log[3].ref])
        #expect(recent.page(SeqRange(author: author, after: 1, through: 4)) == Array(log[1..<4]))
        #expect(recent.page(SeqRange(author: author, after: 0, through: 3)) == nil, "seq 3 was only chained")
        #expect(recent.page(SeqRange(author: author, after: 2, through: 5)) == nil, "seq 5 is not here")
        recent.insert(Array(log[5...]))  // this kiosk's own: every signature counts as checked
        #expect(recent.page(SeqRange(author: author, after: 5, through: 6)) == [log[5]])
        #expect(recent.page(SeqRange(author: author, after: 3, through: 6)) == nil, "seq 5 is missing")
        #expect(recent.page(SeqRange(author: author, after: 4, through: 4)) == nil)
    }
}
