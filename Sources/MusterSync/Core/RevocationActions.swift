public import MusterCore
public import MusterRules

/// What revocations just stored mean for this kiosk's sessions, by the replica's own roster: a
/// revocation of this kiosk still in force stops it (one the store took back in the same batch,
/// the losing branch of the organizer's fork, does not); a revoked peer in session is shown its
/// revocation, when it is in force here, and the session closes. The daemon's driver and the
/// simulator carry the actions out.
public enum RevocationAction: Sendable, Equatable {
    /// This kiosk is revoked: the daemon stops (and wipes only if `RevocationVerdict` allows).
    case stop
    /// Close the session with this peer, after sending it `show` (its revocation) if there is one.
    case close(AuthorID, show: SignedDelta?)

    /// The actions for `revocations`, stored here, in their order.
    ///
    /// - Parameters:
    ///   - inSession: whether this kiosk holds a session with a key.
    ///   - membership: the replica's roster now (nil: it could not be read; nothing is done).
    public static func actions(
        for revocations: [RevokePayload],
        me: AuthorID,
        inSession: (AuthorID) -> Bool,
        membership: (AuthorID) -> Membership?
    ) -> [RevocationAction] {
        var actions: [RevocationAction] = []
        for payload in revocations {
            if payload.kiosk == me {
                if case .revoked? = membership(me), !actions.contains(.stop) { actions.append(.stop) }
                continue
            }
            guard inSession(payload.kiosk) else { continue }
            var show: SignedDelta?
            if case .revoked(_, let evidence)? = membership(payload.kiosk) { show = evidence }
            actions.append(.close(payload.kiosk, show: show))
        }
        return actions
    }
}
