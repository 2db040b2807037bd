public import MusterCore
public import MusterCrypto
public import MusterRules

/// What a kiosk does when a peer shows it a signed revocation of itself. The peer's word is a hint,
/// never an order (DESIGN.md, "Irreversible acts need the strongest proof"): the caller first lets
/// its own store judge the revocation like any delta, then asks this rule, so a superseded branch of
/// the organizer's fork or a replayed message changes nothing.
public enum RevocationOfUs: Sendable, Equatable {
    /// In force in our own replica: the daemon stops (and wipes only if ``RevocationVerdict``
    /// allows).
    case stop
    /// Held here, but no longer in force: hand the peer the organizer's delta that took it back,
    /// so its store takes it back too, and keep serving.
    case answer(SignedDelta)
    /// Signed and naming us, but beyond what our replica holds: stop, and keep every file.
    case stopKeepingFiles

    /// The verdict on `evidence` once our store has judged it.
    ///
    /// - Parameters:
    ///   - ours: our own membership in our replica, read after the store took `evidence`.
    ///   - delta: the delta the replica holds of an author at a seq (asked for seq 1 and above only).
    ///   - membership: an author's membership in our replica.
    public static func judge(
        _ evidence: SignedDelta,
        ours: Membership?,
        organizer: AuthorID,
        delta: (AuthorID, UInt64) -> SignedDelta?,
        membership: (AuthorID) -> Membership?
    ) -> RevocationOfUs {
        if case .revoked? = ours { return .stop }
        if let answer = answer(to: evidence, organizer: organizer, delta: delta, membership: membership) {
            return .answer(answer)
        }
        return .stopKeepingFiles
    }

    /// The organizer's delta that makes `evidence`, a revocation the replica holds no longer in
    /// force, stop counting: our own version of its seq when the organizer's chain forked there and
    /// ours won, or the organizer's revocation of the device that signed it.
    static func answer(
        to evidence: SignedDelta,
        organizer: AuthorID,
        delta: (AuthorID, UInt64) -> SignedDelta?,
        membership: (AuthorID) -> Membership?
    ) -> SignedDelta? {
        // Seq 0 is no seq of a log (certificates live outside them): nothing to compare it with.
        if evidence.seq > 0, let held = delta(evidence.author, evidence.seq), held.envelope != evidence.envelope {
            return evidence.author == organizer ? held : nil
        }
        guard case .revoked(let watermark, let revocation)? = membership(evidence.author),
            watermark < evidence.seq, revocation.author == organizer
        else { return nil }
        return revocation
    }
}
