public import MusterCore

/// What a stored revocation does, as pure rules both stores apply (``Replica`` in its tables, the
/// simulator's memory store in memory). Who may revoke whom is fixed, so the outcome is a function of
/// the set of deltas:
/// - the organizer key revokes kiosks and organizer devices; nothing revokes the organizer key;
/// - an organizer device revokes kiosks only. Its revocation of a device (or of the organizer key) is
///   kept in the log and has no effect, whenever the target's certificate arrives.
///
/// Revocations therefore form two levels and never a cycle: a device the organizer revoked loses its
/// revocations signed after its watermark, and the kiosks they named are revoked again only by what
/// remains (``derivationOrder(_:organizer:)``).
public enum RevocationRule {
    /// Whether a revocation signed by `revoker` takes effect on `target` (whose certificate makes it an
    /// organizer device when `targetIsDevice`).
    public static func mayRevoke(
        _ target: AuthorID,
        by revoker: AuthorID,
        targetIsDevice: Bool,
        organizer: AuthorID
    ) -> Bool {
        if target == organizer { return false }
        if revoker == organizer { return true }
        return !targetIsDevice
    }

    /// The watermark a revocation sets, and the hash a delta at it must have. The watermark names a
    /// delta by hash; holding another delta there (`heldHash`) means the kiosk forked at or before it:
    /// only what precedes the watermark is kept (the rule ``RunJudge`` applies on ingest, so the order
    /// in which the revocation and that delta arrive does not matter).
    public static func watermark(of payload: RevokePayload, heldHash: [UInt8]?) -> (seq: UInt64, hash: [UInt8]?) {
        if let expected = payload.watermarkHash, payload.watermark > 0, let heldHash, heldHash != expected {
            return (payload.watermark - 1, nil)
        }
        return (payload.watermark, payload.watermarkHash)
    }

    /// Whether a watermark replaces the one recorded for the same kiosk: the lowest wins, whatever the order.
    public static func replaces(_ watermark: UInt64, recorded: UInt64?) -> Bool {
        recorded.map { watermark < $0 } ?? true
    }

    /// The order in which revocations are derived again when one stopped counting: the organizer's
    /// first (they may cut a device's chain), then the devices', each by author and seq.
    public static func derivationOrder(_ revocations: [SignedDelta], organizer: AuthorID) -> [SignedDelta] {
        let sorted = revocations.sorted { ($0.author, $0.seq) < ($1.author, $1.seq) }
        return sorted.filter { $0.author == organizer } + sorted.filter { $0.author != organizer }
    }
}
