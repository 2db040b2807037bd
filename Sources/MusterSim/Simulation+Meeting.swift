import MusterCore
import MusterRules
import MusterSync

/// Two kiosks meet after a handshake: each end runs the daemon's ``ConnectionLife`` (credentials in
/// order, the roster's verdict, a revoked peer shown why), their frames passing within the
/// handshake's round trips.
extension Simulation {
    /// Runs both ends' lives until each is established or closed. Returns whether both hold the
    /// session; a refused dial fails as one that got no answer.
    func meet(_ dialer: SimKiosk, _ acceptor: SimKiosk) throws(SimError) -> Bool {
        let kiosks = [dialer, acceptor]
        var lives = [life(of: dialer, with: acceptor, dialed: true), life(of: acceptor, with: dialer, dialed: false)]
        var steps = [lives[0].start(), lives[1].start()]
        var inbox: [[SyncMessage]] = [[], []]
        var kept = [false, false]
        while steps.contains(where: { !$0.isEmpty }) || inbox.contains(where: { !$0.isEmpty }) {
            for side in 0...1 {
                while !steps[side].isEmpty {
                    let step = steps[side].removeFirst()
                    let next = try carryOut(step, of: &lives[side], at: kiosks[side], with: kiosks[1 - side]) {
                        inbox[1 - side].append($0)
                    }
                    if case .register = step { kept[side] = true }
                    steps[side].insert(contentsOf: next, at: 0)
                }
                for message in inbox[side] where lives[side].phase != .closed {
                    steps[side] += lives[side].received(message)
                }
                inbox[side] = []
            }
        }
        return kept == [true, true] && lives.allSatisfy { $0.phase == .established }
    }

    private func life(of kiosk: SimKiosk, with peer: SimKiosk, dialed: Bool) -> ConnectionLife {
        ConnectionLife(
            me: kiosk.id,
            peer: peer.id,
            dialed: dialed,
            retiredKey: false,
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
            try heardRevocation(evidence, at: kiosk)
        case .recordCertificate, .liftHandshakeLimits, .allowAppeal, .storeAppeal, .openSession, .sendRoster,
            .sendKeyRevocations, .sendCurrentKey, .linger, .learnRoster, .recordKeyRevocations, .recordNetworkKey,
            .toCore, .close:
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
