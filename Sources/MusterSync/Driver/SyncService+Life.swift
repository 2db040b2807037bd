import Logging
import MusterCore
import MusterCrypto
import MusterRules
import NIOCore
import Synchronization

/// A connection's life carried out: ``ConnectionLife`` decides, this reads frames, writes them, and
/// does what each step names to the replica, the key ring and the session table.
extension SyncService {
    /// What one connection holds while its steps run: its session's writer and the rekey linger.
    final class LifeResources: @unchecked Sendable {
        var writer: Task<Void, Never>?
        var linger: Task<Void, Never>?
        var registered = false
    }

    /// Runs `life` on `link` until it closes; `established` is called once a session (or a rekey
    /// session, under a retired key) is under way, which the dial loop counts as success.
    nonisolated func live(
        _ life: ConnectionLife,
        on link: Link,
        established: @Sendable () -> Void
    ) async throws {
        var life = life
        let held = LifeResources()
        defer {
            held.linger?.cancel()
            if held.registered {
                let connection = link.connection
                connection.finishOutgoing()
                held.writer?.cancel()
                Task { await self.unregister(connection) }
            }
        }
        var steps = life.start()
        while true {
            while !steps.isEmpty {
                let step = steps.removeFirst()
                steps.insert(contentsOf: try await carryOut(step, of: &life, on: link, held: held), at: 0)
                if case .register = step, held.registered { established() }
                // A rekey session counts as one: the dial loop goes back to the current key, now newer.
                if case .linger = step { established() }
            }
            guard life.phase != .closed else { return }
            let message = try await link.message()
            if life.phase == .established { note(message, from: link.connection.peer) }
            steps = life.received(message)
        }
    }

    /// Does one step; returns the steps it led to, to run next.
    private nonisolated func carryOut(
        _ step: ConnectionLife.Step,
        of life: inout ConnectionLife,
        on link: Link,
        held: LifeResources
    ) async throws -> [ConnectionLife.Step] {
        let connection = link.connection
        let peer = connection.peer
        switch step {
        case .send(let message):
            try await connection.send(message)
        case .judgeCredentials(let first):
            guard let membership = try? replica.membership(of: peer) else {
                logger.warning("refused a peer: cannot read the roster", metadata: metadata(of: connection))
                throw SyncError.closed
            }
            let verdict = Admission.judge(first, from: peer, membership: membership, policy: replica.policy)
            if case .showRevocation = verdict {
                logger.warning("refused a revoked kiosk", metadata: metadata(of: connection))
            }
            return life.judged(verdict)
        case .recordCertificate(let certificate):
            do {
                try replica.admitCertificate(certificate, for: peer)
            } catch {
                logger.warning("refused a kiosk: cannot record its certificate", metadata: metadata(of: connection))
                throw SyncError.closed
            }
            logger.notice("new kiosk on the roster", metadata: ["peer": "\(peer)"])
            await passOn([certificate], except: peer)
        case .liftHandshakeLimits(let rekey):
            guard try await ConnectionGuard.admitted(link.channel, rekey: rekey) else { throw SyncError.closed }
        case .allowAppeal:
            guard try await ConnectionGuard.awaitAppeal(link.channel) else { throw SyncError.closed }
        case .storeAppeal(let deltas):
            await appeal(deltas, from: peer)
        case .register(let enrollment):
            held.registered = await register(connection, dialed: link.dialed, enrollment: enrollment)
            return life.registered(kept: held.registered)
        case .close(let ending):
            log(ending, of: connection)
        default:
            try await carryOutInSession(step, on: link, held: held)
        }
        return []
    }

    /// The steps of an admitted connection: the session's start, the rekey session's keys, and
    /// what the peer's messages are for.
    private nonisolated func carryOutInSession(
        _ step: ConnectionLife.Step,
        on link: Link,
        held: LifeResources
    ) async throws {
        let connection = link.connection
        let peer = connection.peer
        switch step {
        case .openSession:
            logger.info("session established", metadata: metadata(of: connection))
            held.writer = Task {
                await connection.runOutgoing { weight in await self.drive(.written(peer: peer, weight: weight)) }
            }
            await opened(connection)
        case .sendRoster:
            try await connection.send(.roster(try replica.certificates()))
        case .sendKeyRevocations:
            logger.notice(
                "a peer on a retired network key: handing over the newer keys",
                metadata: ["peer": "\(peer)"]
            )
            try await connection.send(.rekey(try replica.keyRevocations(sealedTo: peer)))
        case .sendCurrentKey:
            // The peer was admitted (enrolled, not revoked): it gets the current key sealed to it,
            // which no revocation may have done (it was revoked when the key rotated and is no
            // longer, or it was enrolled before the rotation and started after it).
            if let current = keyRing.withLock({ $0.keyToHandOver }), let key = try? SigningPublicKey(bytes: peer.bytes),
                let sealed = try? SealedBox.seal(current.key, to: key)
            {
                try await connection.send(.networkKey(generation: current.generation, sealed: sealed))
            }
        case .linger:
            let channel = link.channel
            held.linger = Task { [time] in
                try? await time.sleep(for: SyncLimits.rekeyLinger)
                channel.close(promise: nil)
            }
        case .learnRoster(let certificates):
            await learn(certificates, from: peer)
        case .judgeRevocationOfUs(let evidence):
            await heardRevocation(evidence, on: connection)
        case .recordKeyRevocations(let revocations):
            heardRekey(revocations, from: peer)
        case .recordNetworkKey(let generation, let sealed):
            heardNetworkKey(generation: generation, sealed: sealed, from: peer)
        case .toCore(let message):
            // Storing a batch is our own work, not the peer's silence: a kiosk slowed down by a
            // burst must not drop the sessions that feed it.
            link.reader.heard.busy(true)
            await receive(message, from: connection)
            link.reader.heard.busy(false)
        case .send, .judgeCredentials, .recordCertificate, .liftHandshakeLimits, .allowAppeal, .storeAppeal,
            .register, .close:
            break
        }
    }

    private nonisolated func metadata(of connection: PeerConnection) -> Logger.Metadata {
        ["peer": "\(connection.peer)", "address": "\(connection.address)"]
    }

    private nonisolated func log(_ ending: ConnectionLife.Ending, of connection: PeerConnection) {
        let metadata = metadata(of: connection)
        switch ending {
        case .refused(.noCredentials):
            logger.warning("refused a peer without credentials", metadata: metadata)
        case .refused(.organizerDevice):
            logger.warning("refused an organizer device's key as a peer", metadata: metadata)
        case .refused(.notOnRoster(let reason)):
            logger.warning(
                "refused a kiosk that is not on the roster",
                metadata: metadata.merging(["reason": "\(reason)"]) { $1 }
            )
        case .ourselves, .revokedPeer, .accusedUs, .duplicate, .rekeyed:
            logger.debug("connection ended", metadata: metadata.merging(["why": "\(ending)"]) { $1 })
        }
    }
}
