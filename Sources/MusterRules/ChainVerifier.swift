public import MusterCore
import MusterCrypto

/// Verifies a run of consecutive deltas of one author against the head the replica already has.
///
/// The hash chain makes one signature enough: each envelope names the BLAKE2b of its predecessor,
/// so a valid signature on the newest delta authenticates every delta before it in the run. That
/// costs one hash per delta and one Ed25519 verification per run instead of one per delta.
public enum ChainVerifier {
    /// - Parameters:
    ///   - run: deltas of one author with consecutive seqs, oldest first, starting at `head.seq + 1`.
    ///   - head: the author's newest delta the replica holds (seq 0 and the genesis hash if none).
    /// - Returns: the BLAKE2b-256 of every envelope in the run, in order.
    public static func verify(
        run: [SignedDelta],
        after head: AuthorHead
    ) throws(DeltaRejection) -> [[UInt8]] {
        try verify(run: run, after: head) { last in
            (try? SigningPublicKey(bytes: last.author.bytes))?.isValidSignature(last.signature, for: last.envelope)
                ?? false
        }
    }

    /// ``verify(run:after:)`` with the newest delta's signature checked by `signature` (a store that
    /// keeps the pairs that verified asks its cache before Ed25519).
    public static func verify(
        run: [SignedDelta],
        after head: AuthorHead,
        signature: (SignedDelta) -> Bool
    ) throws(DeltaRejection) -> [[UInt8]] {
        guard let last = run.last else { return [] }
        guard (try? SigningPublicKey(bytes: last.author.bytes)) != nil else {
            throw DeltaRejection(.badSignature, "author key is not a valid Ed25519 key", ref: last.ref)
        }
        let hashes = try links(of: run, after: head)
        guard signature(last) else {
            throw DeltaRejection(.badSignature, "signature does not verify", ref: last.ref)
        }
        return hashes
    }

    /// The hash-chain half of ``verify(run:after:)``, without the signature: checks that `run` is
    /// one author's, consecutive from `head`, each delta naming its predecessor's hash, and returns
    /// those hashes. For a store that looks the newest signature up in a cache before Ed25519.
    public static func links(of run: [SignedDelta], after head: AuthorHead) throws(DeltaRejection) -> [[UInt8]] {
        guard let last = run.last else { return [] }
        let author = last.author
        var expectedSeq = head.seq + 1
        var expectedPrev = head.hash
        var hashes: [[UInt8]] = []
        hashes.reserveCapacity(run.count)
        let authorBytes = last.envelope[SignedDelta.authorRange]
        for delta in run {
            // Compared in place: no copy of the author or the previous hash per delta.
            guard delta.envelope[SignedDelta.authorRange].elementsEqual(authorBytes) else {
                throw DeltaRejection(.malformed, "a run mixes authors", ref: delta.ref)
            }
            guard delta.seq == expectedSeq else {
                throw DeltaRejection(.gap, "expected seq \(expectedSeq) of \(author), got \(delta.seq)", ref: delta.ref)
            }
            guard delta.envelope[SignedDelta.prevRange].elementsEqual(expectedPrev) else {
                throw DeltaRejection(.brokenChain, "prev hash does not match the previous delta", ref: delta.ref)
            }
            let hash = Blake2b.hash256(delta.envelope)
            hashes.append(hash)
            expectedPrev = hash
            expectedSeq += 1
        }
        return hashes
    }
}
