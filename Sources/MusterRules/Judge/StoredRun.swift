public import MusterCore

/// The part of a run that is stored (``RunStep/store(_:)``): a chain verified after the author's head,
/// each delta authorized and decoded, up to the first one refused.
///
/// Kept as columns, one entry per delta stored, rather than a value per delta: the chain is the
/// array the judge verified, the hashes are the ones the verifier computed, and each decoded delta is
/// moved in once. A value per delta copied every decoded delta into the plan and out again in the
/// executor and the report, +3.3 % of a catch-up (the guard, 1713812).
public struct StoredRun: Sendable, Equatable {
    /// The verified chain; what is stored is its first ``count`` deltas.
    private var chain: [SignedDelta]
    /// The BLAKE2b-256 of each delta of ``chain``.
    private var chainHashes: [[UInt8]]
    /// Each delta stored, decoded; nil once the replica took it (``takeDecoded(at:)``).
    private var decoded: [Delta?] = []
    /// Per delta stored: its own signature was checked (the newest of the run, or one every
    /// ``RunJudge/verifiedStride``).
    public private(set) var verified: [Bool] = []
    /// Per delta stored: how far its stamp lies ahead of the local clock, when beyond the clock bound:
    /// stored, warned of, and not allowed to move the local clock.
    public private(set) var aheadMillis: [UInt64?] = []
    /// The delta that stopped the run, if one did.
    public var refusal: DeltaRejection?
    /// The run stopped at a refusal, and the last delta stored (authenticated through the chain only)
    /// has a valid signature of its own: mark it checked. Pages served to peers end on a delta whose
    /// own signature was checked, or nothing of this run could ever be passed on (found by the
    /// Byzantine simulator: a liar's refused delta after honest-looking ones split the venue).
    public var checkLastSignature = false

    /// A run that will store a prefix of `chain` (verified, with its `hashes`), as the judge appends it.
    init(chain: [SignedDelta], hashes: [[UInt8]]) {
        self.chain = chain
        self.chainHashes = hashes
        decoded.reserveCapacity(chain.count)
        verified.reserveCapacity(chain.count)
        aheadMillis.reserveCapacity(chain.count)
    }

    /// How many deltas are stored.
    public private(set) var count = 0

    /// The deltas stored, in order.
    public var deltas: ArraySlice<SignedDelta> { chain[..<count] }

    /// The BLAKE2b-256 of each delta stored.
    public var hashes: ArraySlice<[UInt8]> { chainHashes[..<count] }

    /// The next delta of the chain is stored, as `decoded`.
    mutating func append(_ decoded: consuming Delta, verified: Bool, aheadMillis: UInt64?) {
        self.decoded.append(consume decoded)
        self.verified.append(verified)
        self.aheadMillis.append(aheadMillis)
        count += 1
    }

    /// The revocation the `index`-th delta stored carries, if it is one: what a store acts on and
    /// its report lists. The kind is read from the envelope (the byte the decoding went by), so only
    /// a revocation's decoded form is read.
    public func revocation(at index: Int) -> RevokePayload? {
        guard chain[index].kind == .revoke, case .revoke(let payload)? = decoded[index]?.body else { return nil }
        return payload
    }

    /// Moves the `index`-th decoded delta out of the run, for a store that hands it on as its own:
    /// reading it in place copies it (a decoded delta is a large value: about 640 instructions a copy).
    package mutating func takeDecoded(at index: Int) -> Delta {
        guard let taken = decoded[index].take() else { preconditionFailure("delta \(index) of a run taken twice") }
        return taken
    }

    /// Equal when they store the same deltas alike: the chain's deltas after those are not part of it.
    public static func == (a: StoredRun, b: StoredRun) -> Bool {
        guard a.count == b.count, a.deltas == b.deltas, a.hashes == b.hashes else { return false }
        guard a.decoded == b.decoded, a.verified == b.verified, a.aheadMillis == b.aheadMillis else { return false }
        return a.refusal == b.refusal && a.checkLastSignature == b.checkLastSignature
    }
}
