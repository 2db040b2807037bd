import Foundation
import GRDB
public import MusterCore
import MusterCrypto

extension Replica {
    /// Where `author` stands on the roster. A revocation outranks an enrollment in any order.
    public func membership(of author: AuthorID) throws(ReplicaError) -> Membership {
        try read { db in try Self.membership(of: author, policy: policy, db: db) }
    }

    static func membership(of author: AuthorID, policy: VenuePolicy, db: Database) throws -> Membership {
        if author == policy.organizer { return .organizer }
        let key = Data(author.bytes)
        if let row = try Row.fetchOne(
            db,
            sql: "SELECT watermark, envelope, signature FROM revocation WHERE kiosk = ?",
            arguments: [key]
        ) {
            let watermark: Int64 = row["watermark"]
            let evidence = try SignedDelta(row: row)
            return .revoked(watermark: UInt64(watermark), evidence: evidence)
        }
        if let row = try Row.fetchOne(db, sql: "SELECT name, location FROM roster WHERE kiosk = ?", arguments: [key]) {
            return .enrolled(name: row["name"], location: row["location"])
        }
        return .unknown
    }

    /// Checks a certificate a peer (or `muster join`) presents: an enrollment delta of this venue,
    /// signed by the organizer, naming `kiosk`. Its signature alone authenticates it, so it is
    /// recorded on the roster before the rest of the organizer's chain arrives.
    @discardableResult
    public func admitCertificate(_ certificate: SignedDelta, for kiosk: AuthorID) throws(ReplicaError) -> EnrollPayload
    {
        let payload = try Self.verifyCertificate(certificate, for: kiosk, policy: policy)
        let pool = try writer()
        do {
            try pool.write { db in try Self.recordEnrollment(payload, certificate: certificate, db: db) }
        } catch {
            throw Replica.mapError(error)
        }
        return payload
    }

    /// Verifies a certificate without storing it.
    public static func verifyCertificate(
        _ certificate: SignedDelta,
        for kiosk: AuthorID,
        policy: VenuePolicy
    )
        throws(ReplicaError) -> EnrollPayload
    {
        guard certificate.venue == policy.venue else {
            throw ReplicaError(
                .wrongVenue,
                "the enrollment belongs to venue \(certificate.venue)",
                ref: certificate.ref
            )
        }
        guard certificate.author == policy.organizer, case .enroll(let payload) = try? certificate.decode().body else {
            throw ReplicaError(.notEnrolled, "not an enrollment signed by the venue's organizer", ref: certificate.ref)
        }
        guard payload.kiosk == kiosk else {
            throw ReplicaError(
                .notEnrolled,
                "the enrollment names kiosk \(payload.kiosk), not \(kiosk)",
                ref: certificate.ref
            )
        }
        guard let key = try? SigningPublicKey(bytes: certificate.author.bytes),
            key.isValidSignature(certificate.signature, for: certificate.envelope)
        else {
            throw ReplicaError(.badSignature, "the enrollment's signature does not verify", ref: certificate.ref)
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
                    SELECT r.kiosk, r.name, r.location, v.watermark FROM roster r
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
                        revokedWatermark: watermark.map { UInt64($0) }
                    )
                }
            }
        }
    }

    /// The network keys sealed to `kiosk` by revocations, newest generation first.
    public func sealedNetworkKeys(for kiosk: AuthorID) throws(ReplicaError) -> [(generation: UInt64, sealed: [UInt8])] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT generation, sealed FROM network_key WHERE kiosk = ? ORDER BY generation DESC",
                arguments: [Data(kiosk.bytes)]
            ).map { row in
                let generation: Int64 = row["generation"]
                let sealed: Data = row["sealed"]
                return (UInt64(generation), Array(sealed))
            }
        }
    }

    /// The newest network key generation any revocation announced (0: the venue file's key).
    public func newestKeyGeneration() throws(ReplicaError) -> UInt64 {
        try read { db in UInt64(try Int64.fetchOne(db, sql: "SELECT MAX(generation) FROM network_key") ?? 0) }
    }

    static func recordEnrollment(_ payload: EnrollPayload, certificate: SignedDelta, db: Database) throws {
        try db.execute(
            sql: "INSERT OR IGNORE INTO roster(kiosk, name, location, envelope, signature) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                Data(payload.kiosk.bytes), payload.name, payload.location, Data(certificate.envelope),
                Data(certificate.signature),
            ]
        )
    }

    /// Applies a stored revocation: it records its
    /// watermark (the lowest wins, whatever the order), stores the sealed network keys, and drops
    /// whatever the kiosk wrote after the watermark. Returns whether the revocation dropped deltas.
    static func applyRoster(_ delta: SignedDelta, decoded: Delta, db: Database) throws -> Bool {
        switch decoded.body {
        case .revoke(let payload):
            let kiosk = Data(payload.kiosk.bytes)
            // The watermark names a delta by hash. Holding another delta there means the kiosk forked
            // at or before it: only what precedes the watermark is kept (the same rule as on ingest,
            // so the order in which the revocation and that delta arrive does not matter).
            var watermark = payload.watermark
            var watermarkHash = payload.watermarkHash
            if let expected = watermarkHash, watermark > 0,
                let held = try Data.fetchOne(
                    db,
                    sql: "SELECT hash FROM delta WHERE author = ? AND seq = ?",
                    arguments: [kiosk, Int64(clamping: watermark)]
                ), Array(held) != expected
            {
                watermark -= 1
                watermarkHash = nil
            }
            try recordRevocation(
                payload.kiosk,
                watermark: watermark,
                hash: watermarkHash,
                evidence: delta,
                db: db
            )
            for entry in payload.sealedKeys {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO network_key(generation, kiosk, sealed) VALUES (?, ?, ?)",
                    arguments: [Int64(clamping: payload.keyGeneration), Data(entry.kiosk.bytes), Data(entry.sealed)]
                )
            }
            return try truncate(payload.kiosk, after: watermark, db: db)
        default:
            return false
        }
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
    static func truncate(_ kiosk: AuthorID, after watermark: UInt64, db: Database) throws -> Bool {
        let key = Data(kiosk.bytes)
        let limit = Int64(clamping: watermark)
        try db.execute(sql: "DELETE FROM delta WHERE author = ? AND seq > ?", arguments: [key, limit])
        guard db.changesCount > 0 else { return false }
        try db.execute(sql: "DELETE FROM clock_warning WHERE author = ? AND seq > ?", arguments: [key, limit])
        if let last = try Row.fetchOne(
            db,
            sql: "SELECT seq, hash, envelope, signature FROM delta WHERE author = ? ORDER BY seq DESC LIMIT 1",
            arguments: [key]
        ) {
            try db.execute(
                sql: "UPDATE head SET seq = ?, hash = ? WHERE author = ?",
                arguments: [last["seq"] as Int64, last["hash"] as Data, key]
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
        guard evidence.venue == policy.venue, evidence.author == policy.organizer,
            case .revoke(let payload)? = try? evidence.decode().body,
            let key = try? SigningPublicKey(bytes: evidence.author.bytes),
            key.isValidSignature(evidence.signature, for: evidence.envelope)
        else { return nil }
        return payload
    }
}
