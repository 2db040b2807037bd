public import MusterCore
public import MusterCrypto

/// Extends one author's log: numbers, chains, and signs new deltas after a known head.
///
/// Used by `musterd` for the kiosk's own deltas and by `muster` for the organizer's, which are built
/// on the organizer's machine (where the key is) and submitted to the daemon as signed bytes.
public struct DeltaSigner {
    public let venue: VenueID
    public let keyPair: SigningKeyPair
    public private(set) var head: AuthorHead

    public init(venue: VenueID, keyPair: SigningKeyPair, head: AuthorHead) {
        precondition(head.author.bytes == keyPair.publicKey.bytes, "head belongs to another author")
        self.venue = venue
        self.keyPair = keyPair
        self.head = head
    }

    public var author: AuthorID { head.author }

    /// Signs the next delta and advances the head past it.
    public mutating func sign(_ body: DeltaBody, hlc: HLC) -> SignedDelta {
        let delta = Delta(venue: venue, author: head.author, seq: head.seq + 1, prev: head.hash, hlc: hlc, body: body)
        let envelope = delta.envelope()
        let signature = keyPair.sign(envelope)
        head = AuthorHead(author: head.author, seq: delta.seq, hash: Blake2b.hash256(envelope))
        // The envelope was just produced by our own encoder, so its shape is valid by construction.
        return try! SignedDelta(envelope: envelope, signature: signature)
    }
}

extension AuthorID {
    /// The author id of a signing key.
    public init(_ key: SigningPublicKey) {
        self.init(bytes: key.bytes)!
    }
}
