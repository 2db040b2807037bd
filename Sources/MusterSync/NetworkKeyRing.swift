public import MusterCrypto
public import MusterRules

/// The venue network keys a kiosk holds, and which of them it may still use.
///
/// A revocation rotates the network key: the newer key is sealed to each remaining kiosk inside
/// the signed revocation. Older keys are *retired*, not dropped at once, because a kiosk that was
/// off during the rotation only has the old one. A retired key is accepted for
/// ``SyncLimits/retiredKeyGraceMillis`` after the revocation that retired it was signed, and a
/// session under it only hands over the newer keys (`SyncMessage.rekey`) and ends; after the
/// grace period it is refused, so a stolen venue file stops working on its own.
///
/// Two revocations signed on either side of a partition can announce one generation with
/// different keys; the replica keeps the one from the revocation with the lowest hash, on every
/// kiosk alike (``MusterStore/SealedNetworkKey``). That key is current; the other is retired.
///
/// A pure value: the service keeps it behind a lock and asks it which key to dial with and which
/// to accept.
public struct NetworkKeyRing: Sendable {
    public struct Entry: Sendable {
        public let generation: UInt64
        public let key: SecureBytes
        /// The sealed bytes it was opened from (empty for the venue file's key).
        public let sealed: [UInt8]
        /// When the revocation that sealed it was signed (0 for the venue file's key).
        public let issuedAtMillis: UInt64
        /// When it stopped being current (the timestamp of the revocation that replaced it); nil
        /// while it is current.
        public var retiredAtMillis: UInt64?
    }

    /// Current key first, then retired ones, newest generation first.
    public private(set) var entries: [Entry]

    /// The venue file's key, of `generation`.
    public init(venueKey: SecureBytes, generation: UInt64) {
        entries = [Entry(generation: generation, key: venueKey, sealed: [], issuedAtMillis: 0, retiredAtMillis: nil)]
    }

    /// The current key's generation.
    public var generation: UInt64 { entries[0].generation }

    /// Sealed keys this ring has not opened yet (``update(with:opened:)`` takes them opened).
    public func unopened(_ sealed: [SealedNetworkKey]) -> [SealedNetworkKey] {
        let known = Set(entries.map(\.sealed))
        return sealed.filter { !known.contains($0.sealed) }
    }

    /// Takes the replica's sealed keys (newest generation first, one per generation) and those of
    /// them just opened; recomputes which is current and when each other one was retired.
    /// Returns whether the current key changed.
    @discardableResult
    public mutating func update(with sealed: [SealedNetworkKey], opened: [(SealedNetworkKey, SecureBytes)]) -> Bool {
        let before = entries[0].sealed
        for (entry, key) in opened {
            entries.append(
                Entry(
                    generation: entry.generation,
                    key: key,
                    sealed: entry.sealed,
                    issuedAtMillis: entry.issuedAtMillis,
                    retiredAtMillis: nil
                )
            )
        }
        let winners = Set(sealed.map(\.sealed))
        entries.sort { a, b in
            a.generation != b.generation
                ? a.generation > b.generation : winners.contains(a.sealed) && !winners.contains(b.sealed)
        }
        // A key is retired from the moment the first key that outranks it was signed: one of a newer
        // generation, or the one its own generation kept (entries before it in this order).
        for index in entries.indices.dropFirst() {
            entries[index].retiredAtMillis = entries[..<index].map(\.issuedAtMillis).min()
        }
        entries[0].retiredAtMillis = nil
        return entries[0].sealed != before
    }

    /// Takes the replica's sealed keys, opening with `keyPair` those this ring has not opened yet
    /// (``update(with:opened:)``). Returns whether the current key changed, and the keys that would
    /// not open (sealed to another key, or damaged) with why.
    @discardableResult
    public mutating func refresh(
        with sealed: [SealedNetworkKey],
        keyPair: SigningKeyPair
    ) -> (changed: Bool, failed: [(SealedNetworkKey, any Error)]) {
        var opened: [(SealedNetworkKey, SecureBytes)] = []
        var failed: [(SealedNetworkKey, any Error)] = []
        for entry in unopened(sealed) {
            do {
                opened.append((entry, try SealedBox.open(entry.sealed, with: keyPair)))
            } catch {
                failed.append((entry, error))
            }
        }
        return (update(with: sealed, opened: opened), failed)
    }

    /// Whether the key at `index` may still be used at `nowMillis`.
    public func isUsable(_ index: Int, nowMillis: UInt64) -> Bool {
        guard let retired = entries[index].retiredAtMillis else { return true }
        return nowMillis < retired &+ SyncLimits.retiredKeyGraceMillis
    }

    /// The keys a listener tries on a hello, with their index (0 is current).
    public func accepted(nowMillis: UInt64) -> [(index: Int, key: SecureBytes)] {
        entries.indices.filter { isUsable($0, nowMillis: nowMillis) }.map { ($0, entries[$0].key) }
    }

    /// The key to dial with on the `attempt`-th try in a row (0: the current key; each failure the
    /// next usable older one, wrapping around), so two kiosks whose current keys differ still meet
    /// on one both hold. Returns its index.
    public func dialKey(attempt: Int, nowMillis: UInt64) -> (index: Int, key: SecureBytes) {
        let usable = accepted(nowMillis: nowMillis)
        return usable[attempt % usable.count]
    }

    /// The key a rekey session hands a peer sealed to it: the current one, unless it is still the
    /// venue file's (generation 0), which every enrolled kiosk holds.
    public var keyToHandOver: Entry? { entries[0].generation > 0 ? entries[0] : nil }

    /// The attempt in a row the next dial of an address makes (``dialKey(attempt:nowMillis:)``): back
    /// to the current key after a connection that held a session or handed keys over (a rekey
    /// session, which made the current key newer), the next older key after one that did neither.
    public static func nextAttempt(after attempt: Int, succeeded: Bool) -> Int {
        succeeded ? 0 : attempt + 1
    }
}
