public import MusterCore

/// One session per pair of kiosks. Two kiosks that dial each other at once (crossed dials) end up
/// with two connections; both must keep the same one, without a word between them, or each closes
/// the one the other kept and they never meet. The rule both apply: the connection dialed by the
/// kiosk with the lower key stays.
public enum SessionPair {
    /// Whether a newly established connection between `a` and `b`, dialed by `newcomer`, replaces
    /// the pair's live session dialed by `existing` (else the newcomer is closed unseen).
    public static func keepsNewcomer(
        dialedBy newcomer: AuthorID,
        over existing: AuthorID,
        between a: AuthorID,
        _ b: AuthorID
    ) -> Bool {
        let preferred = min(a, b)
        return existing != preferred && newcomer == preferred
    }
}
