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

/// The store: the core's group commits carried out off the actor, and what the replica says back.
extension SyncService {
    /// Commits the core's group off the actor, on ``storeQueue``: sessions' messages are read and
    /// driven meanwhile, and what they ask to store joins the core's next group.
    func store(_ group: StoreGroup) {
        commitsUnderway += 1
        Task {
            await self.commit(group)
            self.commitsUnderway -= 1
            guard self.commitsUnderway == 0 else { return }
            for waiter in self.drainWaiters { waiter.resume() }
            self.drainWaiters = []
        }
    }

    /// Returns once no group commit is under way. The commit runs off the actor, so the sessions can
    /// all have ended while one is still writing; whoever closes the replica after ``run()`` must
    /// not close it under a transaction.
    func storeDrained() async {
        while commitsUnderway > 0 { await withCheckedContinuation { drainWaiters.append($0) } }
    }

    /// One transaction for a group; the core hears its result (and attributes it to its requests).
    func commit(_ group: StoreGroup) async {
        let (now, bound) = clockNow()
        let report: IngestReport
        do {
            report = try await ingest(group.deltas, nowMillis: now, clockBoundMillis: bound).get()
        } catch {
            logger.error("cannot store deltas from a peer", metadata: ["error": "\(error)"])
            drive(.stored(.failed(group.id)))
            return
        }
        log(report)
        commitTrace?.record(report.applied, origin: .remote)
        if let hlc = report.newestAcceptedHLC { observeHLC(hlc) }
        if !report.applied.isEmpty { stateVersion.add(1, ordering: .releasing) }
        drive(.stored(StoreResult(id: group.id, report: report)))
        if report.mayChangeRevocations { await applyRevocations(report.revocations) }
    }

    /// What a group commit's report says for the operator.
    nonisolated func log(_ report: IngestReport) {
        if let error = report.stoppedBy {
            logger.error("cannot store all deltas from peers", metadata: ["error": "\(error)"])
        }
        // One critical line per cut (a fork proved, or proved at a lower seq): copies of the
        // same evidence arriving again log nothing, so a forking kiosk cannot flood the log.
        for ref in report.organizerForks {
            logger.critical(
                "FORK: the organizer key signed two versions of one seq (used on two machines?); every kiosk keeps the earlier one and drops the other's branch: sign again what it held, and give each machine an organizer device key (muster venue add-device)",
                metadata: ["delta": "\(ref)"]
            )
        }
        for ref in report.newForks {
            logger.critical(
                "FORK: an author signed two different deltas with the same seq; its chain is cut there",
                metadata: ["delta": "\(ref)"]
            )
        }
        for ref in report.clockWarnings {
            logger.warning("delta stamped beyond the clock bound", metadata: ["delta": "\(ref)"])
        }
    }

    /// One group commit of peers' deltas on ``storeQueue``, so the actor is free while SQLite works.
    nonisolated func ingest(
        _ deltas: [SignedDelta],
        nowMillis: UInt64,
        clockBoundMillis: UInt64
    ) async -> Result<IngestReport, ReplicaError> {
        let replica = self.replica
        return await withCheckedContinuation { continuation in
            storeQueue.async {
                continuation.resume(
                    returning: Result { () throws(ReplicaError) -> IngestReport in
                        try replica.ingest(
                            deltas,
                            nowMillis: nowMillis,
                            clockBoundMillis: clockBoundMillis,
                            durable: false
                        )
                    }
                )
            }
        }
    }

    /// Fork evidence from an ingest outside the core (an appeal) to the core, after the store's
    /// heads (the cut truncated a log): it goes to every peer not sent it yet.
    func passOn(_ evidence: [SignedDelta]) async {
        refreshHeads()
        var unique: [SignedDelta] = []
        for delta in evidence where !unique.contains(delta) { unique.append(delta) }
        drive(.forkEvidence(unique))
    }

    /// Tells the core the store's heads (a revocation may have truncated a log).
    func refreshHeads() {
        if let heads = try? replica.heads() { drive(.storeHeads(heads)) }
    }

    /// The replica's digest, recomputed only after something changed.
    nonisolated func currentDigest() -> String? {
        let version = stateVersion.load(ordering: .acquiring)
        if let cached = digestCache.withLock({ $0 }), cached.version == version { return cached.digest }
        guard let digest = try? replica.digest() else { return nil }
        digestCache.withLock { $0 = (version, digest) }
        return digest
    }
}
