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
    ///
    /// Throws, leaving the head where it was, when the encoded delta breaks a limit that every replica enforces
    /// (an envelope over the size limit, a body the decoder would refuse): signing it would only produce a delta
    /// that no peer accepts.
    public mutating func sign(_ body: DeltaBody, hlc: HLC) throws(DeltaSignerError) -> SignedDelta {
        let delta = Delta(venue: venue, author: head.author, seq: head.seq + 1, prev: head.hash, hlc: hlc, body: body)
        let envelope = delta.envelope()
        let signed: SignedDelta
        do {
            // Check what every receiver checks before spending a signature on it.
            _ = try Delta.decode(envelope: envelope)
            signed = try SignedDelta(envelope: envelope, signature: keyPair.sign(envelope))
        } catch {
            throw DeltaSignerError(seq: delta.seq, kind: body.kind, cause: error)
        }
        head = AuthorHead(author: head.author, seq: delta.seq, hash: Blake2b.hash256(envelope))
        return signed
    }
}

extension AuthorID {
    /// The author id of a signing key.
    public init(_ key: SigningPublicKey) {
        self.init(bytes: key.bytes)!
    }
}
