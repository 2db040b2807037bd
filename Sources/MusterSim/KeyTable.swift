import MusterCore
import MusterCrypto
import MusterRules

/// The network keys a simulated kiosk's replica holds, as the replica's `network_key` table: one
/// key per generation and kiosk (``NetworkKeyChoice`` picks which), with the revocation that
/// sealed it when the replica holds that revocation.
///
/// Kept beside the kiosk's store (either store), and like it kept across crashes.
struct KeyTable {
    struct Slot: Hashable {
        let generation: UInt64
        let kiosk: AuthorID
    }

    struct Entry {
        let sealed: [UInt8]
        let source: [UInt8]
        let issuedAtMillis: UInt64
        var revocation: SignedDelta?
    }

    private(set) var entries: [Slot: Entry] = [:]

    /// The keys a revocation seals (`Replica`'s `applyRoster`, and `recordNetworkKeys` for one
    /// handed over, `held` false: the revocation itself is not in the replica's log then).
    mutating func record(_ revocation: SignedDelta, _ payload: RevokePayload, held: Bool) {
        let source = Blake2b.hash256(revocation.envelope)
        for sealed in payload.sealedKeys {
            let slot = Slot(generation: payload.keyGeneration, kiosk: sealed.kiosk)
            if held, entries[slot]?.source == source { entries[slot]?.revocation = revocation }
            guard NetworkKeyChoice.replaces(source, over: entries[slot]?.source) else { continue }
            entries[slot] = Entry(
                sealed: sealed.sealed,
                source: source,
                issuedAtMillis: revocation.hlc.physicalMillis,
                revocation: held ? revocation : nil
            )
        }
    }

    /// A key a peer handed over in a rekey session. Returns whether it was new.
    mutating func recordHanded(generation: UInt64, sealed: [UInt8], for kiosk: AuthorID, at millis: UInt64) -> Bool {
        let slot = Slot(generation: generation, kiosk: kiosk)
        guard NetworkKeyChoice.replaces(NetworkKeyChoice.handedSource, over: entries[slot]?.source) else {
            return false
        }
        entries[slot] = Entry(sealed: sealed, source: NetworkKeyChoice.handedSource, issuedAtMillis: millis)
        return true
    }

    /// The keys sealed to `kiosk`, newest generation first (`Replica.sealedNetworkKeys(for:)`).
    func sealed(for kiosk: AuthorID) -> [SealedNetworkKey] {
        entries.filter { $0.key.kiosk == kiosk }.sorted { $0.key.generation > $1.key.generation }.map {
            SealedNetworkKey(
                generation: $0.key.generation,
                sealed: $0.value.sealed,
                issuedAtMillis: $0.value.issuedAtMillis
            )
        }
    }

    /// The held revocations that sealed `kiosk`'s keys, oldest generation first
    /// (`Replica.keyRevocations(sealedTo:)`).
    func revocations(sealedTo kiosk: AuthorID) -> [SignedDelta] {
        entries.filter { $0.key.kiosk == kiosk }.sorted { $0.key.generation < $1.key.generation }.compactMap {
            $0.value.revocation
        }
    }
}
