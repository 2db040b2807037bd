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

/// The venue network keys: the ring, and the keys a peer hands over (``ConnectionLife``'s rekey session).
extension SyncService {
    /// Opens the network keys sealed to this kiosk by revocations and adds them to the ring (which
    /// decides which is current and how long the others stay usable: ``NetworkKeyRing``).
    nonisolated func refreshKeyRing() {
        guard let sealed = try? replica.sealedNetworkKeys(for: me) else { return }
        let (result, generation) = keyRing.withLock { ring in
            let result = ring.refresh(with: sealed, keyPair: keyPair)
            return (result, ring.generation)
        }
        let (changed, failed) = result
        for (entry, error) in failed {
            logger.error(
                "cannot open a rotated network key",
                metadata: ["generation": "\(entry.generation)", "error": "\(error)"]
            )
        }
        if changed { logger.notice("venue network key rotated", metadata: ["generation": "\(generation)"]) }
    }

    /// The newest network key generation in use.
    public nonisolated var keyGeneration: UInt64 { keyRing.withLock { $0.generation } }

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
