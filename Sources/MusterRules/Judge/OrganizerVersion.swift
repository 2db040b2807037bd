public import MusterCore
import MusterCrypto

/// Which of two versions of one organizer seq every replica keeps (``RunJudge/judgeOrganizerVersion(_:plan:)``),
/// and the chain that follows the one kept.
public enum OrganizerVersion {
    /// Whether `a` beats `b`: the earlier stamp (the change signed first), then the lower hash. A total
    /// order, so the outcome does not depend on which version a replica met first, nor on how many
    /// versions there are.
    public static func beats(_ a: SignedDelta, _ b: SignedDelta) -> Bool {
        let (ha, hb) = (a.hlc, b.hlc)
        if ha != hb { return ha < hb }
        return Blake2b.hash256(a.envelope).lexicographicallyPrecedes(Blake2b.hash256(b.envelope))
    }

    /// `first` and the deltas of `run` (one per seq, ascending) that follow on it, seq after seq
    /// and hash after hash: a batch may hold both branches of a fork.
    public static func chain(from first: SignedDelta, in run: [SignedDelta]) -> [SignedDelta] {
        var chain = [first]
        var hash = Blake2b.hash256(first.envelope)
        for next in run where next.seq > first.seq {
            guard next.seq == chain[chain.count - 1].seq + 1, next.prev == hash else { break }
            chain.append(next)
            hash = Blake2b.hash256(next.envelope)
        }
        return chain
    }
}
