public import MusterCore
import MusterCrypto

/// A revocation shown outside its author's chain (to a kiosk it names, or to hand over the network
/// keys it seals): what it says, if it is a revocation of this venue with a valid signature. Who
/// may sign one is the roster's question (``RevocationRule``), asked by the caller.
public enum RevocationEvidence {
    public static func signed(_ evidence: SignedDelta, venue: VenueID) -> RevokePayload? {
        guard evidence.venue == venue, case .revoke(let payload)? = try? evidence.decode().body,
            let key = try? SigningPublicKey(bytes: evidence.author.bytes),
            key.isValidSignature(evidence.signature, for: evidence.envelope)
        else { return nil }
        return payload
    }
}
