public import MusterCore
public import MusterRules

/// The life of one connection after the venue handshake, as a pure state machine: credentials in
/// the right order, the roster's verdict carried out, a revoked peer's one appeal, a rekey session
/// under a retired network key, and what an established session's messages are for.
///
/// ```
/// awaitingCredentials ─┬─ admitted, current key ─→ registering ─┬─ kept ─→ established ─→ closed
///                      │                                        └─ a better session exists ─→ closed
///                      ├─ admitted, retired key ─→ rekeying ─→ closed (peer's keys, or the linger)
///                      ├─ revoked peer ─→ awaitingAppeal ─→ closed
///                      └─ refused, accusing us, ourselves ─→ closed
/// ```
///
/// The daemon's driver (``SyncService``) and the simulator both run it: they carry out its steps
/// (a frame written, a certificate recorded, a store lookup) and feed it what happened. Which
/// session of a pair survives is ``SessionPair``'s rule, and what a session replicates is
/// ``SyncCore``'s; this machine decides everything in between.
public struct ConnectionLife: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// The peer's first message is awaited; it must be its credentials.
        case awaitingCredentials
        /// The peer was shown its revocation; one message, its appeal, may still come.
        case awaitingAppeal
        /// Admitted under a retired network key: the newer keys are handed over, nothing else.
        case rekeying
        /// Admitted under the current key: waiting to learn whether this session is the pair's one.
        case registering
        /// A session: its messages replicate.
        case established
        case closed
    }

    /// What the driver does, in order.
    public enum Step: Sendable, Equatable {
        /// Write this message to the peer.
        case send(SyncMessage)
        /// The peer's first message: judge it with ``Admission/judge(_:from:membership:policy:verify:)``
        /// against its membership in our roster and feed the verdict to ``judged(_:)``.
        case judgeCredentials(SyncMessage)
        /// A kiosk new to our roster: record its certificate and pass it to every other session.
        case recordCertificate(SignedDelta)
        /// The peer is admitted: lift the handshake's deadline and frame cap (a rekey session keeps
        /// its smaller cap).
        case liftHandshakeLimits(rekey: Bool)
        /// A revoked peer may send one more frame, its appeal, under the credentials' cap.
        case allowAppeal
        /// Organizer deltas a revoked peer carried: stored like any others (they prove themselves).
        case storeAppeal([SignedDelta])
        /// Keep this connection as the pair's session if ``SessionPair`` says so, and answer
        /// ``registered(kept:)``.
        case register(EnrollPayload)
        /// The session starts: tell the core (``SyncInput/sessionOpened(peer:initiator:)``).
        case openSession
        /// Send every certificate of our roster.
        case sendRoster
        /// Send the revocations that sealed the network keys the peer may hold (``SyncMessage/rekey(_:)``).
        case sendKeyRevocations
        /// Send our current network key sealed to the peer (``NetworkKeyRing/keyToHandOver``).
        case sendCurrentKey
        /// Close the connection after ``SyncLimits/rekeyLinger`` unless it ends before.
        case linger
        /// Certificates the peer knows: record the valid ones (``RosterGossip``).
        case learnRoster([SignedDelta])
        /// The peer shows a revocation of this kiosk: our own store judges it.
        case judgeRevocationOfUs(SignedDelta)
        /// Revocations the peer handed over for the network keys they seal (only the keys count).
        case recordKeyRevocations([SignedDelta])
        /// A network key the peer sealed to us.
        case recordNetworkKey(generation: UInt64, sealed: [UInt8])
        /// A replication message: for the core (``SyncInput/frameReceived(from:_:)``).
        case toCore(SyncMessage)
        /// End the connection.
        case close(Ending)
    }

    /// Why a connection ended before or after its session; the driver logs it.
    public enum Ending: Sendable, Equatable {
        /// The peer is this kiosk (a static peer or an announcement pointing back at us).
        case ourselves
        case refused(Admission.Refusal)
        /// The peer was shown its revocation (and its appeal, if any, was taken).
        case revokedPeer
        /// The peer's first word was a revocation of this kiosk.
        case accusedUs
        /// The pair already holds the session it prefers.
        case duplicate
        /// The rekey session is over: the peer sent its own keys.
        case rekeyed
    }

    public let me: AuthorID
    public let peer: AuthorID
    /// Whether this kiosk dialed: the dialer shows its credentials first.
    public let dialed: Bool
    /// Whether the handshake used a retired network key (``NetworkKeyRing``).
    public let retiredKey: Bool
    public let organizer: AuthorID
    /// Our own enrollment certificate.
    let ours: SignedDelta
    public private(set) var phase: Phase = .awaitingCredentials

    public init(
        me: AuthorID,
        peer: AuthorID,
        dialed: Bool,
        retiredKey: Bool,
        organizer: AuthorID,
        credentials: SignedDelta
    ) {
        self.me = me
        self.peer = peer
        self.dialed = dialed
        self.retiredKey = retiredKey
        self.organizer = organizer
        ours = credentials
    }

    /// The handshake is done. The dialer shows its credentials first; the listener shows its own
    /// only once the dialer's have checked out, so a peer holding nothing but the network key (a
    /// thief with an old key, a scanner) never learns our name, location or certificate. One side
    /// must go first, and it is the one that chose whom to talk to.
    public mutating func start() -> [Step] {
        guard peer != me else { return end(.ourselves) }
        return dialed ? [.send(.credentials(ours))] : []
    }

    /// A message from the peer, in any phase.
    public mutating func received(_ message: SyncMessage) -> [Step] {
        switch phase {
        case .awaitingCredentials:
            return [.judgeCredentials(message)]
        case .awaitingAppeal:
            // Nothing the peer wrote is taken: only the organizer's own deltas, which prove
            // themselves by their signature whoever carries them (the peer may hold the winning
            // branch of an organizer fork whose losing branch revoked it).
            guard case .deltas(let deltas) = message else { return end(.revokedPeer) }
            let organizers = deltas.prefix(SyncLimits.appealDeltas).filter { $0.author == organizer }
            return (organizers.isEmpty ? [] : [.storeAppeal(Array(organizers))]) + end(.revokedPeer)
        case .rekeying:
            // A rekey session hands over keys and nothing else, whatever the peer sends.
            switch message {
            case .roster(let certificates): return [.learnRoster(certificates)]
            case .networkKey(let generation, let sealed):
                return [.recordNetworkKey(generation: generation, sealed: sealed)]
            case .rekey(let revocations): return [.recordKeyRevocations(revocations)] + end(.rekeyed)
            default: return []
            }
        case .registering, .closed:
            return []
        case .established:
            switch message {
            case .roster(let certificates): return [.learnRoster(certificates)]
            case .revoked(let evidence): return [.judgeRevocationOfUs(evidence)]
            // The peer is on a newer key than the one this session runs under.
            case .rekey(let revocations): return [.recordKeyRevocations(revocations)]
            case .networkKey(let generation, let sealed):
                return [.recordNetworkKey(generation: generation, sealed: sealed)]
            case .credentials: return []
            default: return [.toCore(message)]
            }
        }
    }

    /// The roster's verdict on the peer's first message (``Step/judgeCredentials(_:)``).
    public mutating func judged(_ verdict: Admission) -> [Step] {
        guard phase == .awaitingCredentials else { return [] }
        switch verdict {
        case .accusesUs(let evidence):
            return [.judgeRevocationOfUs(evidence)] + end(.accusedUs)
        case .showRevocation(let evidence):
            phase = .awaitingAppeal
            return [.send(.revoked(evidence)), .allowAppeal]
        case .refuse(let refusal):
            return end(.refused(refusal))
        case .admit(let enrollment, let record):
            // Admitted: no more deadline or unauthenticated slot before our own credentials go
            // out, so what the peer sends right behind them is read at once.
            var steps: [Step] = record.map { [.recordCertificate($0)] } ?? []
            steps.append(.liftHandshakeLimits(rekey: retiredKey))
            if !dialed { steps.append(.send(.credentials(ours))) }
            if retiredKey {
                phase = .rekeying
                return steps + [.sendRoster, .sendKeyRevocations, .sendCurrentKey, .linger]
            }
            phase = .registering
            return steps + [.register(enrollment)]
        }
    }

    /// Whether ``Step/register(_:)`` kept this connection as the pair's session: if so it starts
    /// with our roster.
    public mutating func registered(kept: Bool) -> [Step] {
        guard phase == .registering else { return [] }
        guard kept else { return end(.duplicate) }
        phase = .established
        return [.sendRoster, .openSession]
    }

    /// A step of the driver's failed (a write, a record, the handshake deadline): the connection ends.
    public mutating func failed() {
        phase = .closed
    }

    private mutating func end(_ ending: Ending) -> [Step] {
        phase = .closed
        return [.close(ending)]
    }
}
