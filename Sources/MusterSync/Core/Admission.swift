public import MusterCore
public import MusterRules

/// The roster's word on a peer that finished the handshake, from its first message: who may
/// replicate with this kiosk. A pure rule: the driver looks up the peer's membership, carries out
/// the verdict (a write, a message, a close) and logs it; the simulator asks the same rule.
public enum Admission: Sendable, Equatable {
    /// An enrolled kiosk: the session may start. `record`: its certificate is new to this roster;
    /// it is written, and goes to every other session (roster gossip).
    case admit(EnrollPayload, record: SignedDelta?)
    /// A revoked kiosk: it is shown its revocation (it may answer with one appeal), then closed.
    case showRevocation(SignedDelta)
    /// The peer's first word is a revocation of this kiosk: our own store judges it, as any delta.
    case accusesUs(SignedDelta)
    /// Not a kiosk of this venue: closed without a word.
    case refuse(Refusal)

    public enum Refusal: Sendable, Equatable {
        /// The first message was not credentials.
        case noCredentials
        /// The certificate does not enroll this key in this venue (why, in words).
        case notOnRoster(String)
        /// An organizer device's key: it signs organizer deltas and never holds a session.
        case organizerDevice
    }

    /// The verdict on `peer`, whose first message after the handshake is `first`, given what the
    /// roster says of it.
    ///
    /// - Parameter verify: checks a certificate for a key (``EnrollmentCertificate/verify(_:for:policy:)``;
    ///   the simulator remembers what it verified, as its stores do signatures).
    public static func judge(
        _ first: SyncMessage,
        from peer: AuthorID,
        membership: Membership,
        policy: VenuePolicy,
        verify: (SignedDelta, AuthorID, VenuePolicy) throws(ReplicaError) -> EnrollPayload = EnrollmentCertificate
            .verify
    ) -> Admission {
        if case .revoked(let evidence) = first { return .accusesUs(evidence) }
        guard case .credentials(let certificate) = first else { return .refuse(.noCredentials) }
        if case .revoked(_, let evidence) = membership { return .showRevocation(evidence) }
        // A kiosk already on the roster only needs its certificate checked; only a new one is
        // written (one write transaction per new kiosk, not per session).
        let payload: EnrollPayload
        do {
            payload = try verify(certificate, peer, policy)
        } catch {
            return .refuse(.notOnRoster(error.message))
        }
        guard payload.role == .kiosk else { return .refuse(.organizerDevice) }
        return .admit(payload, record: membership == .unknown ? certificate : nil)
    }
}
