import MusterCore
import MusterCrypto
import MusterStore
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
}
