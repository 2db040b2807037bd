import Foundation
import GRDB
import MusterCore
import MusterCrypto

/// One author's run of a batch: the seqs this replica holds already (copies and forks), then the new
/// deltas after its head, verified as a chain and stored in order.
extension Replica {
    /// Ingests `run`, and again each organizer chain that won a fork on the way (``resolveOrganizerFork``
    /// rolls the organizer's chain back to before the winning version, which is then stored with what
    /// follows it). A loop, not recursion: each turn stores at least the winning version.
    func ingestRunToEnd(
        _ run: [SignedDelta],
        offered: [SignedDelta],
        submitted: Bool,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        var pending: [SignedDelta]? = run
        var submission = submitted
        while let current = pending {
            pending = try ingestRun(
                current,
                offered: offered,
                submitted: submission,
                db: db,
                nowMillis: nowMillis,
                clockBoundMillis: clockBoundMillis,
                into: &report
            )
            // A submission never resolves an organizer fork (see ``sortHeld``); what comes next is a peer's.
            submission = false
        }
    }

    /// The part of a run at or below the author's head, sorted out, and what is left to store.
    struct HeldSorting {
        /// The deltas after the head, to verify and store.
        var fresh: [SignedDelta] = []
        /// Where the author's chain is cut by a fork, including one this run proved.
        var forkCut: UInt64?
        /// The organizer's chain from a version that won a fork: to ingest in place of the rest of the run.
        var winner: [SignedDelta]?
    }

    /// - Parameter offered: the whole batch the run came in (what its sender knows; see
    ///   ``admitAuthor(_:record:forkCut:fresh:offered:db:into:)``).
    /// - Parameter submitted: an organizer submission (atomic), not a peer's batch: a version of a
    ///   seq the organizer's chain already has is refused (the `muster` that signed it signs again
    ///   on the head), never resolved against the one held, which its own command acknowledged.
    /// - Returns: the organizer's chain to ingest next, when a version in this run won a fork.
    private func ingestRun(
        _ run: [SignedDelta],
        offered: [SignedDelta],
        submitted: Bool,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws -> [SignedDelta]? {
        guard let author = run.first?.author else { return nil }
        let record = try AuthorRecord.fetch(author, policy: policy, db: db)
        let sorting = try sortHeld(
            run,
            record: record,
            offered: offered,
            submitted: submitted,
            db: db,
            nowMillis: nowMillis,
            into: &report
        )
        if let winner = sorting.winner { return winner }
        var fresh = sorting.fresh
        // Keep the contiguous prefix: it ends with a delta whose own signature authenticates it.
        let (prefix, gap) = record.head.contiguousPrefix(of: fresh)
        if let gap { report.rejected.append(gap) }
        guard !prefix.isEmpty else { return nil }
        fresh.removeSubrange(prefix.endIndex...)
        guard
            let byDevice = try admitAuthor(
                author,
                record: record,
                forkCut: sorting.forkCut,
                fresh: &fresh,
                offered: offered,
                db: db,
                into: &report
            )
        else { return nil }
        let hashes: [[UInt8]]
        do {
            hashes = try ChainVerifier.verify(run: fresh, after: record.head)
        } catch {
            report.rejected.append(error)
            return nil
        }
        try storeChain(
            fresh,
            hashes: hashes,
            record: record,
            byDevice: byDevice,
            db: db,
            nowMillis: nowMillis,
            clockBoundMillis: clockBoundMillis,
            into: &report
        )
        return nil
    }

    /// Sorts the deltas of `run` at or below the author's head: a copy of the one held is a duplicate, another
    /// version is a fork (recorded, cutting a kiosk's chain) or, for the organizer, a contender
    /// (``resolveOrganizerFork``). The rest is fresh.
    private func sortHeld(
        _ run: [SignedDelta],
        record: AuthorRecord,
        offered: [SignedDelta],
        submitted: Bool,
        db: Database,
        nowMillis: UInt64,
        into report: inout IngestReport
    ) throws -> HeldSorting {
        let author = record.head.author
        var sorting = HeldSorting(forkCut: record.forkCut)
        for delta in run {
            // One delta per seq in a run (``runsByAuthor(_:first:)``).
            if delta.seq > record.head.seq {
                sorting.fresh.append(delta)
                continue
            }
            if let cut = sorting.forkCut, delta.seq >= cut {
                // Cut by a fork this run may itself have proved: nothing from there on is evidence.
                continue
            }
            let storedHash = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT hash FROM delta WHERE author = ? AND seq = ?"),
                arguments: [Data(author.bytes), Int64(delta.seq)]
            )
            if let storedHash, Array(storedHash) == Blake2b.hash256(delta.envelope) {
                report.duplicates += 1
            } else if author == policy.organizer && submitted {
                report.rejected.append(
                    DeltaRejection(.fork, "the organizer's chain already has seq \(delta.seq) here", ref: delta.ref)
                )
            } else if author == policy.organizer {
                guard try resolveOrganizerFork(delta, offered: offered, db: db, nowMillis: nowMillis, into: &report)
                else {
                    continue
                }
                // This version won: the chain went back to before it, so it and what of the run
                // follows on it are stored now.
                sorting.winner = Self.chain(from: delta, in: run)
                return sorting
            } else {
                try recordFork(delta, db: db, nowMillis: nowMillis, into: &report)
                sorting.forkCut = try Self.forkCut(of: author, db: db)
            }
        }
        return sorting
    }

    /// Authorizes, decodes and stores `fresh` (a verified chain after the author's head, with its `hashes`) in
    /// order, up to the first delta refused; the head moves once, to the last one stored.
    private func storeChain(
        _ fresh: [SignedDelta],
        hashes: [[UInt8]],
        record: AuthorRecord,
        byDevice: Bool,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        let author = record.head.author
        // Time moves forward along the chain, inside the window the author's certificate opens.
        var previousHLC = record.headHLC
        var stored: (seq: UInt64, hash: [UInt8])?
        for (index, (delta, hash)) in zip(fresh, hashes).enumerated() {
            let decoded: Delta
            do {
                try policy.authorize(delta, byDevice: byDevice)
                decoded = try decodeVerified(delta)
                try policy.checkMeaning(decoded)
                try policy.checkTime(
                    decoded.hlc,
                    after: previousHLC,
                    certificate: record.certificateHLC,
                    ref: delta.ref
                )
            } catch {
                report.rejected.append(error)
                if let stored { try Self.moveHead(of: author, to: stored.seq, hash: stored.hash, db: db) }
                try checkSignatureOfLastStored(stored, in: fresh, author: author, db: db)
                return
            }
            // Only the newest delta of the run had its own signature checked; the others are
            // authenticated by the chain. Served pages end on a delta whose signature was checked, so in
            // a long run (an import applied in one transaction) every `verifiedStride`-th signature is
            // checked too: a page then stays within one sync message however long the run.
            let verified =
                index == fresh.count - 1
                || ((index + 1) % Self.verifiedStride == 0 && Self.hasValidSignature(delta, author: author))
            try store(
                delta,
                decoded: decoded,
                hash: hash,
                verified: verified,
                db: db,
                nowMillis: nowMillis,
                moveHead: false
            )
            stored = (delta.seq, hash)
            previousHLC = decoded.hlc
            CrashPoint.ingestStored.hit()
            try noteStored(
                delta,
                decoded: decoded,
                verified: verified,
                db: db,
                nowMillis: nowMillis,
                clockBoundMillis: clockBoundMillis,
                into: &report
            )
        }
        // The head moves once per run, to the last delta stored (in the same transaction).
        if let stored { try Self.moveHead(of: author, to: stored.seq, hash: stored.hash, db: db) }
    }

    /// What the report says of a delta just stored; a stamp too far ahead of this kiosk's clock is recorded
    /// as a clock warning and does not move `newestAcceptedHLC`.
    private func noteStored(
        _ delta: SignedDelta,
        decoded: Delta,
        verified: Bool,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        report.applied.append(delta)
        if verified { report.signatureChecked.insert(delta.ref) }
        if case .revoke(let payload) = decoded.body { report.revocations.append(payload) }
        let stampMillis = delta.hlc.physicalMillis
        if stampMillis > nowMillis &+ clockBoundMillis {
            report.clockWarnings.append(delta.ref)
            try db.run(
                "INSERT OR REPLACE INTO clock_warning(author, seq, ahead_ms) VALUES (?, ?, ?)",
                [Data(delta.author.bytes), Int64(delta.seq), Int64(stampMillis - nowMillis)]
            )
        } else {
            report.newestAcceptedHLC = max(report.newestAcceptedHLC ?? .zero, delta.hlc)
        }
    }

    /// The run stopped at a refused delta: the last one stored was authenticated through the chain only.
    /// Pages served to peers end on a delta whose own signature was checked, so it is checked now, or nothing
    /// of this run could ever be passed on (found by the Byzantine simulator: a liar's refused delta after
    /// honest-looking ones split the venue).
    private func checkSignatureOfLastStored(
        _ stored: (seq: UInt64, hash: [UInt8])?,
        in fresh: [SignedDelta],
        author: AuthorID,
        db: Database
    ) throws {
        guard let stored, let last = fresh.first(where: { $0.seq == stored.seq }),
            Self.hasValidSignature(last, author: author)
        else { return }
        try db.execute(
            sql: "UPDATE delta SET sig_verified = 1 WHERE author = ? AND seq = ?",
            arguments: [Data(author.bytes), Int64(clamping: stored.seq)]
        )
    }

    /// How often a long run has its own signatures checked on ingest (see ``deltas(of:after:limit:)``): at most
    /// this many deltas lie between two checked ones, well under a sync message's 2,000.
    static let verifiedStride = 500

    static func hasValidSignature(_ delta: SignedDelta, author: AuthorID) -> Bool {
        guard let key = try? SigningPublicKey(bytes: author.bytes) else { return false }
        return key.isValidSignature(delta.signature, for: delta.envelope)
    }

    func decodeVerified(_ delta: SignedDelta) throws(DeltaRejection) -> Delta {
        do {
            return try delta.decode()
        } catch {
            throw DeltaRejection(.malformed, "delta does not decode: \(error)", ref: delta.ref)
        }
    }
}
