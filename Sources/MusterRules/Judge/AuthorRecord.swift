public import MusterCore

/// Everything a write needs to know of one author before it appends to the author's chain: the
/// head and its timestamp, the fork cut, the roster entry (with the certificate's timestamp) and
/// the revocation. The input of ``RunJudge`` besides the run itself; ``Replica`` reads it in one
/// statement (``fetch(_:policy:db:)``), the simulator's memory store from its own tables.
public struct AuthorRecord: Sendable, Equatable {
    public var head: AuthorHead
    /// The timestamp of the head delta; nil for an empty chain.
    public var headHLC: HLC?
    /// The lowest seq at which the author was seen to fork, if it did.
    public var forkCut: UInt64?
    public var membership: Membership
    /// Whether the roster names the author an organizer device (revoked or not).
    public var isDevice: Bool
    /// The timestamp of the author's enrollment certificate; nil for the organizer and for an
    /// author not on the roster.
    public var certificateHLC: HLC?
    /// The hash of the delta a revocation's watermark names, while it still names one: a delta at
    /// the watermark must be that one (nil once the watermark went below a fork, or when the
    /// revocation named no hash).
    public var watermarkHash: [UInt8]?

    public init(
        head: AuthorHead,
        headHLC: HLC? = nil,
        forkCut: UInt64? = nil,
        membership: Membership,
        isDevice: Bool = false,
        certificateHLC: HLC? = nil,
        watermarkHash: [UInt8]? = nil
    ) {
        self.head = head
        self.headHLC = headHLC
        self.forkCut = forkCut
        self.membership = membership
        self.isDevice = isDevice
        self.certificateHLC = certificateHLC
        self.watermarkHash = watermarkHash
    }
}
