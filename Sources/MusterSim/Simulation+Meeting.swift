import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// How two kiosks' meeting ended.
enum Meeting {
    /// Both hold the session.
    case session
    /// One end was on a retired network key: the newer keys were handed over, and it ends.
    case rekeyed
    /// Refused, or closed before a session: to the dialer, a dial that got no answer.
    case refused
}

/// Two kiosks meet after a handshake: each end runs the daemon's ``ConnectionLife`` (credentials in
/// order, the roster's verdict, a revoked peer shown why, the rekey session under a retired network
/// key), their frames passing within the handshake's round trips.
extension Simulation {
    /// Runs both ends' lives until each is established or closed; `retired`: which end's handshake
    /// key was a retired one (``handshakeKeys(_:_:)``).
    func meet(
        _ dialer: SimKiosk,
        _ acceptor: SimKiosk,
        retired: (dialer: Bool, acceptor: Bool)
    ) throws(SimError)
        -> Meeting
    {
        let kiosks = [dialer, acceptor]
        var lives = [
            life(of: dialer, with: acceptor, dialed: true, retired: retired.dialer),
            life(of: acceptor, with: dialer, dialed: false, retired: retired.acceptor),
        ]
        var handedOver = false
        var steps = [lives[0].start(), lives[1].start()]
        var inbox: [[SyncMessage]] = [[], []]
        // Each end reads one message at a time and carries out all it leads to before the next,
        // as the driver's read loop does.
        while steps.contains(where: { !$0.isEmpty }) || inbox.contains(where: { !$0.isEmpty }) {
            for side in 0...1 {
                repeat {
                    while !steps[side].isEmpty {
                        let step = steps[side].removeFirst()
                        let next = try carryOut(step, of: &lives[side], at: kiosks[side], with: kiosks[1 - side]) {
                            inbox[1 - side].append($0)
                        }
                        if case .linger = step { handedOver = true }
                        steps[side].insert(contentsOf: next, at: 0)
                    }
                    guard !inbox[side].isEmpty else { break }
                    let message = inbox[side].removeFirst()
                    if lives[side].phase != .closed { steps[side] = lives[side].received(message) }
                } while true
            }
        }
        if lives.allSatisfy({ $0.phase == .established }) { return .session }
        return handedOver ? .rekeyed : .refused
    }

    private func life(of kiosk: SimKiosk, with peer: SimKiosk, dialed: Bool, retired: Bool) -> ConnectionLife {
        ConnectionLife(
            me: kiosk.id,
            peer: peer.id,
            dialed: dialed,
            retiredKey: retired,
            organizer: venue.policy.organizer,
            credentials: venue.certificates[kiosk.index].0
        )
    }

    /// One step of `kiosk`'s end; returns the steps it led to. The roster is the venue's (every
    /// kiosk knows every certificate), so roster steps record nothing.
    private func carryOut(
        _ step: ConnectionLife.Step,
        of life: inout ConnectionLife,
        at kiosk: SimKiosk,
        with peer: SimKiosk,
        send: (SyncMessage) -> Void
    ) throws(SimError) -> [ConnectionLife.Step] {
        switch step {
        case .send(let message):
            send(message)
        case .judgeCredentials(let first):
            guard let membership = try? kiosk.store.membership(of: peer.id) else {
                life.failed()
                return []
            }
            return life.judged(judge(first, from: peer, membership: membership))
        case .register:
            // Which session of a pair survives is decided by ``crossed(_:from:to:)`` before.
            return life.registered(kept: true)
        case .judgeRevocationOfUs(let evidence):
            try heardRevocation(evidence, at: kiosk, reply: send)
        case .storeAppeal(let deltas):
            try storeAppeal(deltas, at: kiosk)
        case .sendKeyRevocations:
            send(.rekey(kiosk.keys.revocations(sealedTo: peer.id)))
        case .sendCurrentKey:
            if let current = kiosk.keyRing.keyToHandOver {
                do {
                    send(
                        .networkKey(
                            generation: current.generation,
                            sealed: try SealedBox.seal(current.key, to: peer.key.publicKey)
                        )
                    )
                } catch {
                    throw SimError("k\(kiosk.index + 1) cannot seal its network key", cause: error)
                }
            }
        case .recordKeyRevocations(let revocations):
            // Only the keys count (`Replica.recordNetworkKeys(from:)`): the organizer's signature checked.
            for evidence in revocations {
                guard let payload = organizersRevocation(evidence) else { continue }
                kiosk.keys.record(evidence, payload, held: false)
            }
            refreshKeys(kiosk)
        case .recordNetworkKey(let generation, let sealed):
            let millis = kiosk.wallMillis(at: now)
            if kiosk.keys.recordHanded(generation: generation, sealed: sealed, for: kiosk.id, at: millis) {
                refreshKeys(kiosk)
            }
        case .recordCertificate, .liftHandshakeLimits, .allowAppeal, .openSession, .sendRoster, .linger,
            .learnRoster, .toCore, .close:
            break
        }
        return []
    }

    /// ``Admission``'s verdict on `peer`'s first message; each venue certificate is checked once per
    /// run (the same bytes give the same answer).
    private func judge(_ first: SyncMessage, from peer: SimKiosk, membership: Membership) -> Admission {
        Admission.judge(first, from: peer.id, membership: membership, policy: venue.policy) {
            certificate,
            key,
            policy throws(ReplicaError) in
            if let payload = verifiedCertificates[key], certificate == venue.certificates[peer.index].0 {
                return payload
            }
            let payload = try EnrollmentCertificate.verify(certificate, for: key, policy: policy)
            verifiedCertificates[key] = payload
            return payload
        }
    }
}

extension Simulation {
    /// The revocations a kiosk's store just took: the network keys they seal go into its table.
    func recordKeys(of report: IngestReport, at kiosk: SimKiosk) {
        guard !report.revocations.isEmpty else { return }
        for delta in report.applied where delta.kind == .revoke {
            guard case .revoke(let payload)? = try? delta.decode().body else { continue }
            kiosk.keys.record(delta, payload, held: true)
        }
        refreshKeys(kiosk)
    }

    /// Opens the keys sealed to the kiosk that its ring lacks, and lets the ring decide which is
    /// current (the daemon's `refreshKeyRing`).
    func refreshKeys(_ kiosk: SimKiosk) {
        kiosk.keyRing.refresh(with: kiosk.keys.sealed(for: kiosk.id), keyPair: kiosk.key)
    }
}
