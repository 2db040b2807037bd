import Foundation
import GRDB
public import MusterCore
import MusterCrypto
public import MusterRules

extension Replica {
    /// Where `author` stands on the roster. A revocation outranks an enrollment in any order.
    public func membership(of author: AuthorID) throws(ReplicaError) -> Membership {
        try read { db in try AuthorRecord.fetch(author, policy: policy, db: db).membership }
    }

    /// Checks a certificate a peer (or `muster join`) presents: an enrollment delta of this venue,
    /// signed by the organizer, naming `kiosk`. Its signature alone authenticates it, so it is
    /// recorded on the roster before the rest of the organizer's chain arrives.
    @discardableResult
    public func admitCertificate(_ certificate: SignedDelta, for kiosk: AuthorID) throws(ReplicaError) -> EnrollPayload
    {
        let payload = try EnrollmentCertificate.verify(certificate, for: kiosk, policy: policy)
        let pool = try writer()
        do {
            try pool.write { db in try Self.recordEnrollment(payload, certificate: certificate, policy: policy, db: db)
            }
        } catch {
            throw Replica.mapError(error)
        }
        return payload
    }

    /// This kiosk's own enrollment, to present to peers.
    public func certificate(of kiosk: AuthorID) throws(ReplicaError) -> SignedDelta? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: "SELECT envelope, signature FROM roster WHERE kiosk = ?",
                    arguments: [Data(kiosk.bytes)]
                )
            else { return nil }
            return try SignedDelta(row: row)
        }
    }

    /// Every kiosk on the roster, revoked ones included, by name.
    public func roster() throws(ReplicaError) -> [RosterEntry] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.kiosk, r.name, r.location, r.role, v.watermark FROM roster r
                    LEFT JOIN revocation v ON v.kiosk = r.kiosk ORDER BY r.name, r.kiosk
                    """
            ).compactMap { row in
                let kiosk: Data = row["kiosk"]
                let watermark: Int64? = row["watermark"]
                return AuthorID(bytes: kiosk).map {
                    RosterEntry(
                        kiosk: $0,
                        name: row["name"],
                        location: row["location"],
                        revokedWatermark: watermark.map { UInt64($0) },
                        role: EnrollRole(rawValue: UInt8(clamping: row["role"] as Int64)) ?? .kiosk
                    )
                }
            }
        }
    }

    /// The network keys sealed to `kiosk` by revocations, newest generation first (one per
    /// generation: the revocation with the lowest hash's).
    public func sealedNetworkKeys(for kiosk: AuthorID) throws(ReplicaError) -> [SealedNetworkKey] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT generation, sealed, issued_at FROM network_key WHERE kiosk = ? ORDER BY generation DESC
                    """,
                arguments: [Data(kiosk.bytes)]
            ).map { row in
                let generation: Int64 = row["generation"]
                let sealed: Data = row["sealed"]
                let issued: Int64 = row["issued_at"]
                return SealedNetworkKey(
                    generation: UInt64(generation),
                    sealed: Array(sealed),
                    issuedAtMillis: UInt64(clamping: issued)
                )
            }
        }
    }

    /// The revocations that sealed the network keys `kiosk` holds (one per generation), to hand a
    /// kiosk that is behind its new key without anything else (see `SyncMessage.rekey`).
    public func keyRevocations(sealedTo kiosk: AuthorID) throws(ReplicaError) -> [SignedDelta] {
        try read { db in
            let sources = try Data.fetchAll(
                db,
                sql: "SELECT source FROM network_key WHERE kiosk = ? ORDER BY generation",
                arguments: [Data(kiosk.bytes)]
            )
            guard !sources.isEmpty else { return [] }
            let revocations = try Row.fetchAll(
                db,
                sql: "SELECT envelope, signature FROM delta WHERE kind = ?",
                arguments: [Int64(DeltaKind.revoke.rawValue)]
            ).map { try SignedDelta(row: $0) }
            return sources.compactMap { source in revocations.first { Data($0.envelopeHash) == source } }
        }
    }

    /// Records the keys a revocation sealed, from a revocation a peer handed over before the rest
    /// of its author's chain (``keyRevocations(sealedTo:)``). Only the key knowledge is kept: the
    /// revocation itself counts once it arrives in its chain. Returns whether it checked out.
    @discardableResult
    public func recordNetworkKeys(from evidence: SignedDelta) throws(ReplicaError) -> Bool {
        guard let payload = verifiedRevocation(evidence) else { return false }
        let pool = try writer()
        do {
            try pool.write { db in
                Self.storeNetworkKeys(
                    payload,
                    source: Blake2b.hash256(evidence.envelope),
                    issuedAt: evidence.hlc.physicalMillis,
                    db: db
                )
            }
        } catch {
            throw Replica.mapError(error)
        }
        return true
    }

    /// The newest network key generation any revocation announced (0: the venue file's key).
    public func newestKeyGeneration() throws(ReplicaError) -> UInt64 {
        try read { db in UInt64(try Int64.fetchOne(db, sql: "SELECT MAX(generation) FROM network_key") ?? 0) }
    }

    static func recordEnrollment(
        _ payload: EnrollPayload,
        certificate: SignedDelta,
        policy: VenuePolicy,
        db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO roster(kiosk, name, location, envelope, signature, role)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                Data(payload.kiosk.bytes), payload.name, payload.location, Data(certificate.envelope),
                Data(certificate.signature), Int64(payload.role.rawValue),
            ]
        )
        // A device's revocation of this key, held before its certificate said it is a device, no
        // longer counts (devices revoke kiosks only): derive the revocations again.
        if payload.role == .organizerDevice, db.changesCount > 0,
            try Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM revocation WHERE kiosk = ?",
                arguments: [Data(payload.kiosk.bytes)]
            )
                ?? false
        {
            if try rederiveRevocations(policy: policy, db: db) { try Materializer.rebuild(db: db) }
        }
    }

    /// Applies a stored revocation: it records its watermark (the lowest wins, whatever the order;
    /// ``RevocationRule``), stores the sealed network keys, and drops whatever the kiosk wrote after
    /// the watermark. Returns whether the revocation dropped deltas.
    static func applyRoster(_ delta: SignedDelta, decoded: Delta, policy: VenuePolicy, db: Database) throws -> Bool {
        guard case .revoke(let payload) = decoded.body else { return false }
        storeNetworkKeys(
            payload,
            source: Blake2b.hash256(delta.envelope),
            issuedAt: decoded.hlc.physicalMillis,
            db: db
        )
        return try applyRevocation(delta, payload: payload, policy: policy, db: db)
    }

    /// The sealed network keys a revocation carries (``NetworkKeyChoice`` keeps one per generation).
    private static func storeNetworkKeys(_ payload: RevokePayload, source: [UInt8], issuedAt: UInt64, db: Database) {
        for entry in payload.sealedKeys {
            _ = try? storeNetworkKey(
                generation: payload.keyGeneration,
                kiosk: entry.kiosk,
                sealed: entry.sealed,
                source: source,
                issuedAt: issuedAt,
                db: db
            )
        }
    }

    /// Stores one sealed network key unless the one held for its generation and kiosk ranks first
    /// (``NetworkKeyChoice``). Returns whether it was stored.
    static func storeNetworkKey(
        generation: UInt64,
        kiosk: AuthorID,
        sealed: [UInt8],
        source: [UInt8],
        issuedAt: UInt64,
        db: Database
    ) throws -> Bool {
        let held = try Data.fetchOne(
            db,
            sql: "SELECT source FROM network_key WHERE generation = ? AND kiosk = ?",
            arguments: [Int64(clamping: generation), Data(kiosk.bytes)]
        )
        guard NetworkKeyChoice.replaces(source, over: held.map { Array($0) }) else { return false }
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO network_key(generation, kiosk, sealed, source, issued_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                Int64(clamping: generation), Data(kiosk.bytes), Data(sealed), Data(source), Int64(clamping: issuedAt),
            ]
        )
        return true
    }

    /// Whether `revoker` may revoke `target` (``RevocationRule/mayRevoke(_:by:targetIsDevice:organizer:)``).
    static func mayRevoke(_ target: AuthorID, by revoker: AuthorID, policy: VenuePolicy, db: Database) throws -> Bool {
        let role = try Int64.fetchOne(
            db,
            sql: "SELECT role FROM roster WHERE kiosk = ?",
            arguments: [Data(target.bytes)]
        )
        return RevocationRule.mayRevoke(
            target,
            by: revoker,
            targetIsDevice: role == Int64(EnrollRole.organizerDevice.rawValue),
            organizer: policy.organizer
        )
    }

    /// - Parameter rederiving: true inside ``rederiveRevocations(policy:db:)``, which takes the
    ///   devices' revocations only after the organizer's have cut what they cut.
    private static func applyRevocation(
        _ delta: SignedDelta,
        payload: RevokePayload,
        policy: VenuePolicy,
        db: Database,
        rederiving: Bool = false
    ) throws -> Bool {
        guard try mayRevoke(payload.kiosk, by: delta.author, policy: policy, db: db) else { return false }
        let kiosk = Data(payload.kiosk.bytes)
        let held =
            payload.watermarkHash == nil || payload.watermark == 0
            ? nil
            : try Self.heldHash(payload.kiosk, seq: payload.watermark, db: db)
        let (watermark, watermarkHash) = RevocationRule.watermark(of: payload, heldHash: held)
        try recordRevocation(
            payload.kiosk,
            watermark: watermark,
            hash: watermarkHash,
            evidence: delta,
            db: db
        )
        let dropsRevocations =
            try !rederiving
            && Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM delta WHERE author = ? AND seq > ? AND kind = ? LIMIT 1",
                arguments: [kiosk, Int64(clamping: watermark), Int64(DeltaKind.revoke.rawValue)]
            ) ?? false
        let dropped = try truncate(payload.kiosk, after: watermark, settingAside: true, db: db)
        // A revoked device loses revocations it signed after its watermark: derive them again.
        if dropsRevocations { _ = try rederiveRevocations(policy: policy, db: db) }
        return dropped
    }

    /// Derives every revocation again from the revocations in the log: the organizer's first (they
    /// may cut a device's chain), then the devices' that remain. Called only when a revocation
    /// stopped counting (its device was revoked before it, or its target turned out to be a
    /// device); a kiosk no longer revoked takes its later deltas again from any peer that holds
    /// them. Returns whether deltas were dropped.
    @discardableResult
    static func rederiveRevocations(policy: VenuePolicy, db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM revocation")
        var dropped = false
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT envelope, signature FROM delta WHERE kind = ?",
            arguments: [Int64(DeltaKind.revoke.rawValue)]
        )
        let revocations = RevocationRule.derivationOrder(
            try rows.map { try SignedDelta(row: $0) },
            organizer: policy.organizer
        )
        for delta in revocations {
            // A revocation an earlier one in this pass cut off is gone from the log.
            guard
                try Bool.fetchOne(
                    db,
                    sql: "SELECT 1 FROM delta WHERE author = ? AND seq = ?",
                    arguments: [Data(delta.author.bytes), Int64(clamping: delta.seq)]
                ) ?? false,
                case .revoke(let payload) = try delta.decode().body
            else { continue }
            if try applyRevocation(delta, payload: payload, policy: policy, db: db, rederiving: true) {
                dropped = true
            }
        }
        return dropped
    }

    /// Records (or lowers) a kiosk's revocation watermark: the lowest wins, whatever the order.
    static func recordRevocation(
        _ kiosk: AuthorID,
        watermark: UInt64,
        hash: [UInt8]?,
        evidence: SignedDelta,
        db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO revocation(kiosk, watermark, envelope, signature, watermark_hash) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(kiosk) DO UPDATE SET watermark = excluded.watermark, envelope = excluded.envelope,
                    signature = excluded.signature, watermark_hash = excluded.watermark_hash
                WHERE excluded.watermark < revocation.watermark
                """,
            arguments: [
                Data(kiosk.bytes), Int64(clamping: watermark), Data(evidence.envelope), Data(evidence.signature),
                hash.map { Data($0) },
            ]
        )
    }

    /// Drops a revoked (or forked) kiosk's deltas after its watermark and moves its head back.
    /// A revocation's cut is set aside (`settingAside`), since the revocation may be taken back; a
    /// fork's is not: the second version of a seq is proof of a lie, kept in `fork_evidence`.
    static func truncate(
        _ kiosk: AuthorID,
        after watermark: UInt64,
        settingAside: Bool = false,
        db: Database
    ) throws -> Bool {
        let key = Data(kiosk.bytes)
        let limit = Int64(clamping: watermark)
        if settingAside {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO set_aside(author, seq, envelope, signature)
                    SELECT author, seq, envelope, signature FROM delta WHERE author = ? AND seq > ?
                    """,
                arguments: [key, limit]
            )
        }
        try db.execute(sql: "DELETE FROM delta WHERE author = ? AND seq > ?", arguments: [key, limit])
        guard db.changesCount > 0 else { return false }
        try db.execute(sql: "DELETE FROM clock_warning WHERE author = ? AND seq > ?", arguments: [key, limit])
        if let last = try Row.fetchOne(
            db,
            sql: "SELECT seq, envelope, signature FROM delta WHERE author = ? ORDER BY seq DESC LIMIT 1",
            arguments: [key]
        ) {
            try db.execute(
                sql: "UPDATE head SET seq = ?, hash = ? WHERE author = ?",
                arguments: [last["seq"] as Int64, Data(try SignedDelta(row: last).envelopeHash), key]
            )
            // Pages served to peers end on a delta whose own signature was checked; the new last one
            // was authenticated through the chain, so check its own signature now.
            let envelope: Data = last["envelope"]
            let signature: Data = last["signature"]
            if let author = try? SigningPublicKey(bytes: kiosk.bytes),
                author.isValidSignature(Array(signature), for: Array(envelope))
            {
                try db.execute(
                    sql: "UPDATE delta SET sig_verified = 1 WHERE author = ? AND seq = ?",
                    arguments: [key, last["seq"] as Int64]
                )
            }
        } else {
            try db.execute(sql: "DELETE FROM head WHERE author = ?", arguments: [key])
        }
        return true
    }
}

extension Replica {
    /// Every enrollment certificate this replica knows (revoked kiosks' too: revocation is checked
    /// separately), for the roster message of a new session.
    public func certificates() throws(ReplicaError) -> [SignedDelta] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT envelope, signature FROM roster ORDER BY kiosk").map { row in
                try SignedDelta(row: row)
            }
        }
    }

    /// Checks a revocation shown by a peer: a revoke delta of this venue signed by the organizer.
    public static func verifyRevocation(_ evidence: SignedDelta, policy: VenuePolicy) -> RevokePayload? {
        guard evidence.author == policy.organizer else { return nil }
        return RevocationEvidence.signed(evidence, venue: policy.venue)
    }

    /// Checks a revocation shown by a peer: signed by the organizer, or by one of its devices on
    /// this replica's roster when it names a kiosk (devices revoke kiosks only).
    public func verifiedRevocation(_ evidence: SignedDelta) -> RevokePayload? {
        guard let payload = RevocationEvidence.signed(evidence, venue: policy.venue) else { return nil }
        if evidence.author == policy.organizer { return payload }
        guard case .device? = try? membership(of: evidence.author) else { return nil }
        if case .device? = try? membership(of: payload.kiosk) { return nil }
        return payload
    }
}
