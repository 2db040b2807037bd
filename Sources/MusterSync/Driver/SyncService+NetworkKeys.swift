import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterTime
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The venue network keys: the ring, and the rekey session that hands newer keys to a peer on a retired one.
extension SyncService {
    /// Opens the network keys sealed to this kiosk by revocations and adds them to the ring (which
    /// decides which is current and how long the others stay usable: ``NetworkKeyRing``).
    nonisolated func refreshKeyRing() {
        guard let sealed = try? replica.sealedNetworkKeys(for: me) else { return }
        var opened: [(SealedNetworkKey, SecureBytes)] = []
        for entry in keyRing.withLock({ $0.unopened(sealed) }) {
            do {
                opened.append((entry, try SealedBox.open(entry.sealed, with: keyPair)))
            } catch {
                logger.error(
                    "cannot open a rotated network key",
                    metadata: ["generation": "\(entry.generation)", "error": "\(error)"]
                )
            }
        }
        let (changed, generation) = keyRing.withLock { ring in
            (ring.update(with: sealed, opened: opened), ring.generation)
        }
        if changed { logger.notice("venue network key rotated", metadata: ["generation": "\(generation)"]) }
    }

    /// The newest network key generation in use.
    public nonisolated var keyGeneration: UInt64 { keyRing.withLock { $0.generation } }

    /// A session under a retired key (``NetworkKeyRing``): it hands the peer the certificates and the
    /// revocations that sealed our newer keys to it, takes the peer's if it has newer ones of its
    /// own, and ends. Nothing else is said, whatever the peer sends.
    nonisolated func rekey(
        _ connection: PeerConnection,
        peer: AuthorID,
        next: () async throws -> [UInt8],
        receiver: SecretStreamReceiver,
        channel: any Channel
    ) async throws {
        logger.notice("a peer on a retired network key: handing over the newer keys", metadata: ["peer": "\(peer)"])
        try await connection.send(.roster(try replica.certificates()))
        try await connection.send(.rekey(try replica.keyRevocations(sealedTo: peer)))
        // The peer was admitted (enrolled, not revoked): it gets the current key sealed to it, which no
        // revocation may have done (it was revoked when the key rotated and is no longer, or it was
        // enrolled before the rotation and started after it).
        let current = keyRing.withLock { $0.entries[0] }
        if current.generation > 0, let key = try? SigningPublicKey(bytes: peer.bytes),
            let sealed = try? SealedBox.seal(current.key, to: key)
        {
            try await connection.send(.networkKey(generation: current.generation, sealed: sealed))
        }
        let linger = Task {
            try? await time.sleep(for: SyncLimits.rekeyLinger)
            channel.close(promise: nil)
        }
        defer { linger.cancel() }
        while true {
            let (plaintext, _) = try receiver.open(try await next())
            switch try SyncMessage.decode(plaintext) {
            case .roster(let certificates):
                await learn(certificates, from: peer)
            case .rekey(let revocations):
                heardRekey(revocations, from: peer)
                return
            case .networkKey(let generation, let sealed):
                heardNetworkKey(generation: generation, sealed: sealed, from: peer)
            default:
                continue
            }
        }
    }

    /// Revocations a peer handed over in a rekey session: their sealed keys go into the replica
    /// (only the keys; the revocations count once they arrive in their chains) and the ring.
    nonisolated func heardRekey(_ revocations: [SignedDelta], from peer: AuthorID) {
        var recorded = 0
        for evidence in revocations where (try? replica.recordNetworkKeys(from: evidence)) == true { recorded += 1 }
        logger.info("newer network keys handed over", metadata: ["peer": "\(peer)", "revocations": "\(recorded)"])
        refreshKeyRing()
    }

    /// A network key a peer sealed to us in a rekey session: kept (unless a key of that generation
    /// is already held) and opened into the ring, so the next dial uses it.
    nonisolated func heardNetworkKey(generation: UInt64, sealed: [UInt8], from peer: AuthorID) {
        let fresh =
            (try? replica.recordHandedNetworkKey(
                generation: generation,
                sealed: sealed,
                for: me,
                receivedAtMillis: time.wallMillis
            )) ?? false
        logger.info(
            "a peer handed over the current network key",
            metadata: ["peer": "\(peer)", "generation": "\(generation)", "new": "\(fresh)"]
        )
        if fresh { refreshKeyRing() }
    }
}
