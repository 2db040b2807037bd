import Foundation
import GRDB
public import MusterCore
import MusterCrypto

/// Forks: a second version of a seq this replica holds. A kiosk's chain is cut at the fork on every
/// replica; the organizer's is resolved, one version kept by one rule.
extension Replica {
    /// Whether a second version of a held seq may count at all: its author may write its kind, and
    /// its own signature verifies (so nobody but the author can make evidence). Refused otherwise.
    private func admitsSecondVersion(_ delta: SignedDelta, byDevice: Bool, into report: inout IngestReport) -> Bool {
        do throws(DeltaRejection) {
            try policy.authorize(delta, byDevice: byDevice)
        } catch {
            report.rejected.append(error)
            return false
        }
        guard Self.hasValidSignature(delta, author: delta.author) else {
            report.rejected.append(DeltaRejection(.badSignature, "signature does not verify", ref: delta.ref))
            return false
        }
        return true
    }

    /// A second, different delta at a seq we already hold. Evidence is kept only when its signature
    /// verifies, so nobody but the author can fill the table, and at most two envelopes per (author,
    /// seq): the first two seen, which are all any replica needs to prove the fork.
    ///
    /// A kiosk that forks is cut on every replica by the same rule: its chain ends before the lowest
    /// seq at which it forked (``ReplicaError/Code/forked``), as if revoked there. The evidence is
    /// reported (``IngestReport/forkEvidence``) so the sync layer passes it on: a replica that holds
    /// one version and receives the other finds the same fork and makes the same cut. The
    /// organizer's chain is not cut (that would end the venue): its forks are resolved instead
    /// (``resolveOrganizerFork(_:offered:db:nowMillis:into:)``).
    func recordFork(
        _ delta: SignedDelta,
        db: Database,
        nowMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        guard admitsSecondVersion(delta, byDevice: try Self.isDevice(delta.author, db: db), into: &report) else {
            return
        }
        let author = Data(delta.author.bytes)
        let seq = Int64(clamping: delta.seq)
        var evidence = try Self.forkEvidence(of: delta.author, seq: delta.seq, db: db)
        if evidence.isEmpty,
            let row = try Row.fetchOne(
                db,
                sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq = ?",
                arguments: [author, seq]
            )
        {
            evidence.append(try SignedDelta(row: row))
        }
        if evidence.count < 2, !evidence.contains(delta) { evidence.append(delta) }
        for proof in evidence {
            try db.execute(
                sql: """
                    INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at)
                    SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (
                        SELECT 1 FROM fork_evidence WHERE author = ? AND seq = ? AND envelope = ?)
                    """,
                arguments: [
                    author, seq, Data(proof.envelope), Data(proof.signature), Int64(nowMillis), author, seq,
                    Data(proof.envelope),
                ]
            )
        }
        report.rejected.append(
            DeltaRejection(
                .fork,
                "author \(delta.author) signed two different deltas with seq \(delta.seq)",
                ref: delta.ref
            )
        )
        guard delta.author != policy.organizer, evidence.count == 2 else { return }
        let known = try Self.forkCut(of: delta.author, db: db)
        guard known.map({ delta.seq < $0 }) ?? true else { return }
        try db.execute(
            sql: """
                INSERT INTO fork_cut(author, seq) VALUES (?, ?)
                ON CONFLICT(author) DO UPDATE SET seq = excluded.seq WHERE excluded.seq < fork_cut.seq
                """,
            arguments: [author, seq]
        )
        report.newForks.append(delta.ref)
        report.forkEvidence += evidence
        // What this batch stored of the chain from the cut on is gone again: not to be relayed.
        report.applied.removeAll { $0.seq >= delta.seq && $0.author == delta.author }
        if try Self.truncate(delta.author, after: delta.seq - 1, db: db) {
            try Materializer.rebuild(db: db)
        }
    }

    /// Another version of a seq of the organizer's chain, which this replica already holds: the
    /// organizer key signed on two machines during a partition (organizer devices exist so that
    /// it need not). Its chain is never cut, which would end the venue, and it must not stay split
    /// either: each side would refuse the other's locks and undos for good. So every replica keeps
    /// one version by one rule (``organizerVersion(_:beats:)``: the earlier stamp, then the lower
    /// hash) with the chain that follows it, and drops the other branch, whichever it met first.
    ///
    /// A version that follows another delta at `seq - 1` than the one held is no contender here:
    /// it is refused as a broken chain, and the sync layer sends the peer our version of `seq - 1`,
    /// down to the seq where the two chains part (``StoreResult/brokenChains``).
    ///
    /// - Returns: true when `delta` won: the organizer's chain now ends before its seq, for the
    ///   caller to store it and what follows it.
    func resolveOrganizerFork(
        _ delta: SignedDelta,
        offered: [SignedDelta],
        db: Database,
        nowMillis: UInt64,
        into report: inout IngestReport
    ) throws -> Bool {
        guard admitsSecondVersion(delta, byDevice: false, into: &report),
            try contends(delta, db: db, into: &report),
            let row = try Row.fetchOne(
                db,
                sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq = ?",
                arguments: [Data(delta.author.bytes), Int64(clamping: delta.seq)]
            )
        else { return false }
        let held = try SignedDelta(row: row)
        let (winner, loser) = Self.organizerVersion(delta, beats: held) ? (delta, held) : (held, delta)
        // The evidence: the version kept and one it beat, for `muster status` and for peers.
        let evidence = [winner, loser]
        try keepOrganizerEvidence(evidence, of: delta, db: db, nowMillis: nowMillis, into: &report)
        // Peers hear of it unless the sender already showed both versions and nothing moved here.
        if winner == delta || !evidence.allSatisfy({ offered.contains($0) }) { report.forkEvidence += evidence }
        guard winner == delta else {
            report.rejected.append(
                DeltaRejection(
                    .superseded,
                    "the organizer signed two versions of seq \(delta.seq); every replica keeps the other one",
                    ref: delta.ref
                )
            )
            return false
        }
        try dropOrganizerBranch(from: delta, db: db, into: &report)
        return true
    }

    /// Whether another version of a held organizer seq contends at all: it follows the version of `seq - 1`
    /// this replica holds (else it is refused as a broken chain), and it could be stored in place of the one
    /// held. One that could not would drop the branch and then be refused itself (a stamp before its
    /// parent's could beat every honest version, leaving no version of the seq anywhere).
    private func contends(_ delta: SignedDelta, db: Database, into report: inout IngestReport) throws -> Bool {
        var parent = Delta.genesisPrev
        var parentHLC: HLC?
        if delta.seq > 1 {
            let held = try Row.fetchOne(
                db,
                sql: "SELECT hash, envelope, signature FROM delta WHERE author = ? AND seq = ?",
                arguments: [Data(delta.author.bytes), Int64(clamping: delta.seq) - 1]
            )
            parent = (held?["hash"] as Data?).map { Array($0) } ?? []
            parentHLC = try held.map { try SignedDelta(row: $0).hlc }
        }
        guard delta.prev == parent else {
            report.rejected.append(
                DeltaRejection(
                    .brokenChain,
                    "the organizer's seq \(delta.seq) follows another version of seq \(delta.seq - 1) than this replica holds",
                    ref: delta.ref
                )
            )
            return false
        }
        do throws(DeltaRejection) {
            let decoded = try decodeVerified(delta)
            try policy.checkMeaning(decoded)
            try policy.checkTime(decoded.hlc, after: parentHLC, certificate: nil, ref: delta.ref)
        } catch {
            report.rejected.append(error)
            return false
        }
        return true
    }

    /// Replaces the evidence of the organizer's fork at `delta`'s seq with `evidence` (the version kept and
    /// one it beat) when it changed; a fork seen for the first time is reported.
    private func keepOrganizerEvidence(
        _ evidence: [SignedDelta],
        of delta: SignedDelta,
        db: Database,
        nowMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        let author = Data(delta.author.bytes)
        let seq = Int64(clamping: delta.seq)
        let known = try Self.forkEvidence(of: delta.author, seq: delta.seq, db: db)
        guard Set(known.map(\.signature)) != Set(evidence.map(\.signature)) else { return }
        try db.execute(sql: "DELETE FROM fork_evidence WHERE author = ? AND seq = ?", arguments: [author, seq])
        for proof in evidence {
            try db.execute(
                sql: "INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [author, seq, Data(proof.envelope), Data(proof.signature), Int64(clamping: nowMillis)]
            )
        }
        if known.isEmpty { report.organizerForks.append(delta.ref) }
    }

    /// The organizer's chain goes back to before `delta`'s seq, whose version won. What this batch stored of
    /// the losing branch is gone again: not to be relayed, and its revocations not acted on (a kiosk named in
    /// one would wipe itself); revocations the branch held here are derived again without it.
    private func dropOrganizerBranch(from delta: SignedDelta, db: Database, into report: inout IngestReport) throws {
        for gone in report.applied where gone.author == delta.author && gone.seq >= delta.seq && gone.kind == .revoke {
            if case .revoke(let payload)? = try? gone.decode().body,
                let index = report.revocations.firstIndex(of: payload)
            {
                report.revocations.remove(at: index)
            }
        }
        report.applied.removeAll { $0.author == delta.author && $0.seq >= delta.seq }
        let dropsRevocations =
            try Bool.fetchOne(
                db,
                sql: "SELECT 1 FROM delta WHERE author = ? AND seq >= ? AND kind = ? LIMIT 1",
                arguments: [Data(delta.author.bytes), Int64(clamping: delta.seq), Int64(DeltaKind.revoke.rawValue)]
            ) ?? false
        _ = try Self.truncate(delta.author, after: delta.seq - 1, db: db)
        if dropsRevocations { _ = try Self.rederiveRevocations(policy: policy, db: db) }
        try Materializer.rebuild(db: db)
    }

    /// `first` and the deltas of `run` (one per seq, ascending) that follow on it, seq after seq
    /// and hash after hash: a batch may hold both branches of a fork.
    static func chain(from first: SignedDelta, in run: [SignedDelta]) -> [SignedDelta] {
        var chain = [first]
        var hash = Blake2b.hash256(first.envelope)
        for next in run where next.seq > first.seq {
            guard next.seq == chain[chain.count - 1].seq + 1, next.prev == hash else { break }
            chain.append(next)
            hash = Blake2b.hash256(next.envelope)
        }
        return chain
    }

    /// Which of two versions of one organizer seq every replica keeps: the earlier stamp (the
    /// change signed first), then the lower hash. A total order, so the outcome does not depend on
    /// which version a replica met first, nor on how many versions there are.
    public static func organizerVersion(_ a: SignedDelta, beats b: SignedDelta) -> Bool {
        let (ha, hb) = (a.hlc, b.hlc)
        if ha != hb { return ha < hb }
        return Blake2b.hash256(a.envelope).lexicographicallyPrecedes(Blake2b.hash256(b.envelope))
    }

    /// The lowest seq at which `author` was seen to fork, if it did.
    static func forkCut(of author: AuthorID, db: Database) throws -> UInt64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT seq FROM fork_cut WHERE author = ?"),
            arguments: [Data(author.bytes)]
        ).map { UInt64($0) }
    }

    /// The (at most two) signed deltas proving that `author` forked at `seq`.
    /// The evidence of every cut this replica made (both signed versions at each author's cut seq),
    /// for a peer a session starts with: one that missed the evidence when it went round (cut off,
    /// crashed) holds the forked author's chain beyond the cut, and nothing else would tell it.
    public func forkEvidence() throws(ReplicaError) -> [SignedDelta] {
        try read { db in
            // The organizer's chain is never cut: its forks are the seqs where one version won.
            try Row.fetchAll(
                db,
                sql: """
                    SELECT author, seq FROM fork_cut
                    UNION SELECT DISTINCT author, seq FROM fork_evidence WHERE author = ?
                    ORDER BY author, seq
                    """,
                arguments: [Data(policy.organizer.bytes)]
            ).flatMap { row in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                guard let id = AuthorID(bytes: author) else { return [SignedDelta]() }
                return try Self.forkEvidence(of: id, seq: UInt64(seq), db: db)
            }
        }
    }

    static func forkEvidence(of author: AuthorID, seq: UInt64, db: Database) throws -> [SignedDelta] {
        try Row.fetchAll(
            db,
            sql: "SELECT envelope, signature FROM fork_evidence WHERE author = ? AND seq = ? ORDER BY id",
            arguments: [Data(author.bytes), Int64(clamping: seq)]
        ).map { try SignedDelta(row: $0) }
    }

    /// Whether `author`'s certificate makes it an organizer device (revoked or not).
    static func isDevice(_ author: AuthorID, db: Database) throws -> Bool {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT role FROM roster WHERE kiosk = ?"),
            arguments: [Data(author.bytes)]
        ) == Int64(EnrollRole.organizerDevice.rawValue)
    }

}
