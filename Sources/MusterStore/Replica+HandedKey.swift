import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension Replica {
    /// The `source` of a network key a peer handed over in a rekey session rather than a
    /// revocation: above every hash, so a revocation's own key of that generation always wins.
    static let handedKeySource = Data(repeating: 0xFF, count: 32)

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
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO network_key(generation, kiosk, sealed, source, issued_at)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        Int64(clamping: generation), Data(kiosk.bytes), Data(sealed), Self.handedKeySource,
                        Int64(clamping: receivedAtMillis),
                    ]
                )
                return db.changesCount > 0
            }
        } catch {
            throw Replica.mapError(error)
        }
    }
}
