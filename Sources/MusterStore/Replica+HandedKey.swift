import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// Records a network key of `generation` sealed to `kiosk` that a peer handed over
    /// (`SyncMessage.networkKey`), unless a key of that generation is already held for it.
    /// Returns whether it was new.
    @discardableResult
    public func recordHandedNetworkKey(
        generation: UInt64,
        sealed: [UInt8],
        for kiosk: AuthorID,
        receivedAtMillis: UInt64
    ) throws(ReplicaError) -> Bool {
        do {
            return try writer().write { db in
                try Self.storeNetworkKey(
                    generation: generation,
                    kiosk: kiosk,
                    sealed: sealed,
                    source: NetworkKeyChoice.handedSource,
                    issuedAt: receivedAtMillis,
                    db: db
                )
            }
        } catch {
            throw Replica.mapError(error)
        }
    }
}
