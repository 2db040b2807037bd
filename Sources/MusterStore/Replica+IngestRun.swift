import Foundation
import GRDB
import MusterCore
import MusterCrypto
public import MusterRules

/// One author's run of a batch: judged by ``RunJudge``, and its plan carried out in the batch's
/// transaction. The rules are the judge's; what is here is where each step's rows go.
extension Replica {
    /// Judges `run` and carries out the plan, and again each organizer chain that won a fork on the way
    /// (``RunPlan/resume``), judged against the organizer's record as the drop left it. A loop, not
    /// recursion: each turn stores at least the winning version.
    ///
    /// - Parameter offered: the whole batch the run came in (what its sender knows).
    /// - Parameter submitted: an organizer submission (atomic), not a peer's batch (see
    ///   ``RunJudge/submitted``).
    func ingestRunToEnd(
        _ run: [SignedDelta],
        offered: [SignedDelta],
        submitted: Bool,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        let clock = IngestClock(nowMillis: nowMillis, boundMillis: clockBoundMillis)
        var pending: [SignedDelta]? = run
        // A submission never resolves an organizer fork; what comes after a resolution is a peer's.
        var submission = submitted
        while let current = pending, let author = current.first?.author {
            let judge = RunJudge(
                policy: policy,
                record: try AuthorRecord.fetch(author, policy: policy, db: db, hot: hot),
                offered: offered,
                submitted: submission,
                clock: clock,
                reader: DatabaseRunReader(db: db, signatures: signatures)
            )
            var plan = try judge.judge(current)
            pending = plan.resume
            // Each step is moved out of the plan, noted, then carried out: the store step hands its
            // decoded deltas on without a copy (``storeRun(_:db:nowMillis:)``). Noted first, since
            // the store takes them; a step that throws takes the batch's report down with it.
            var steps = plan.steps
            plan.steps = []
            steps.reverse()
            while let step = steps.popLast() {
                report.note(step)
                try execute(step, db: db, nowMillis: nowMillis)
            }
            submission = false
        }
    }

    /// Carries out one step of a run's plan.
    private func execute(_ step: consuming RunStep, db: Database, nowMillis: UInt64) throws {
        switch consume step {
        case .duplicate, .reject, .reportForkEvidence:
            return
        case .keepForkEvidence(let ref, let evidence):
            try Self.keepForkEvidence(evidence, at: ref, db: db, nowMillis: nowMillis)
        case .cutChain(let ref, _):
            try cutChain(at: ref, db: db)
        case .replaceOrganizerEvidence(let ref, let evidence, _):
            try Self.replaceForkEvidence(evidence, at: ref, db: db, nowMillis: nowMillis)
        case .dropOrganizerBranch(let ref):
            try dropChain(of: ref.author, from: ref.seq, db: db)
        case .lowerWatermark(let author, let watermark, let evidence):
            try Self.recordRevocation(author, watermark: watermark, hash: nil, evidence: evidence, db: db)
        case .store(let run):
            try storeRun(run, db: db, nowMillis: nowMillis)
        }
    }

    /// Appends and materializes a verified run in order; the head moves once, to the last delta stored.
    ///
    /// Each decoded delta is moved out of the run and handed on: read in place, each was copied (a
    /// decoded delta is a large value, and the copy about 640 instructions).
    private func storeRun(_ run: consuming StoredRun, db: Database, nowMillis: UInt64) throws {
        let (deltas, hashes) = (run.deltas, run.hashes)
        for index in 0..<run.count {
            let delta = deltas[index]
            try store(
                delta,
                decoded: run.takeDecoded(at: index),
                hash: hashes[index],
                verified: run.verified[index],
                db: db,
                nowMillis: nowMillis,
                moveHead: false
            )
            CrashPoint.ingestStored.hit()
            if let ahead = run.aheadMillis[index] {
                try db.run(
                    "INSERT OR REPLACE INTO clock_warning(author, seq, ahead_ms) VALUES (?, ?, ?)",
                    [Data(delta.author.bytes), Int64(delta.seq), Int64(clamping: ahead)]
                )
            }
        }
        guard let last = deltas.last, let hash = hashes.last else { return }
        try Self.moveHead(of: last.author, to: last.seq, hash: hash, db: db)
        if run.checkLastSignature {
            try db.execute(
                sql: "UPDATE delta SET sig_verified = 1 WHERE author = ? AND seq = ?",
                arguments: [Data(last.author.bytes), Int64(clamping: last.seq)]
            )
        }
    }
}

/// What ``RunJudge`` reads of the replica, inside the batch's transaction.
struct DatabaseRunReader: RunReader {
    let db: Database
    let signatures: (any SignatureChecking)?

    func signatureVerifies(_ delta: SignedDelta) -> Bool {
        signatures?.verifies(delta) ?? Self.ed25519Verifies(delta)
    }

    func held(_ author: AuthorID, seq: UInt64) throws -> HeldDelta? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq = ?"),
                arguments: [Data(author.bytes), Int64(clamping: seq)]
            )
        else { return nil }
        let delta = try SignedDelta(row: row)
        return HeldDelta(delta: delta, hash: delta.envelopeHash)
    }

    /// Prepared once per connection: every copy a peer sends again is checked here.
    func heldHash(_ author: AuthorID, seq: UInt64) throws -> [UInt8]? {
        try Replica.heldHash(author, seq: seq, db: db)
    }

    func forkEvidence(of author: AuthorID, seq: UInt64) throws -> [SignedDelta] {
        try Replica.forkEvidence(of: author, seq: seq, db: db)
    }
}
