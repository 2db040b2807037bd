import Foundation
import GRDB
public import MusterCore
import MusterCrypto
public import MusterRules

extension Replica {
    /// Verifies and stores deltas from elsewhere (a peer, or the organizer's `muster` through the
    /// control socket), materializing each as it is stored.
    ///
    /// The whole batch is one transaction (group commit), unless a person's write waits for the
    /// writer meanwhile (then the batch commits in parts, each ending with an author's run; see
    /// ``writeForPerson(_:)``). Every author's run is verified before any of it is written: a run is authenticated by its hash chain and the signature of its newest
    /// delta (see ``ChainVerifier``), then each delta is authorized and decoded. Deltas the replica
    /// already has are counted as duplicates; a different delta at a seq the replica has is a fork:
    /// the evidence is kept and the delta refused.
    ///
    /// - Parameter atomic: when true, any refusal throws and nothing from the batch is stored
    ///   (organizer submissions are all or nothing).
    /// - Parameter durable: when false, the commit does not wait for the disk (`synchronous=NORMAL`
    ///   for this transaction only). For peers' deltas: every one of them is held, acknowledged and
    ///   fsynced by its author, and a commit lost to a power cut here (never to a crash of the
    ///   process: the WAL is written before the commit returns) is fetched again from the peers at
    ///   the next session, since heads are exchanged afresh. The next durable commit (any local
    ///   write) or checkpoint makes everything before it durable too. A kiosk fed by 49 peers in a
    ///   burst otherwise pays one fsync for every group it stores.
    public func ingest(
        _ deltas: [SignedDelta],
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        atomic: Bool = false,
        durable: Bool = true
    ) throws(ReplicaError) -> IngestReport {
        // Peers' deltas wait while the disk is nearly full; an organizer's submission is a person's
        // write, and goes ahead.
        if !atomic, let free = freeBytes(), free < Self.peerReserveBytes {
            throw ReplicaError(
                .diskFull,
                "only \(free / 1024) KiB free: the last \(Self.peerReserveBytes >> 20) MiB are kept for this kiosk's "
                    + "check-ins, and peers' deltas wait for room"
            )
        }
        let (runs, planned) = IngestBatch.plan(deltas, first: policy.organizer)
        var report = planned
        var next = 0
        do {
            // One transaction, unless a person's write waits for the writer (``writeForPerson``):
            // then what is stored so far commits at the end of the author's run, and the rest
            // queues behind that write. Runs never span two transactions; an atomic batch is one.
            repeat {
                func write(_ db: Database) throws {
                    // Not a cached statement: SQLite applies `PRAGMA synchronous` while preparing it, so a
                    // prepared one run again would change nothing.
                    if !durable { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
                    var chunk = report
                    var reached = next
                    let stored = Result { () throws in
                        try db.inTransaction {
                            CrashPoint.ingestBegin.hit()
                            while reached < runs.count {
                                try ingestRunToEnd(
                                    runs[reached],
                                    offered: deltas,
                                    submitted: atomic,
                                    db: db,
                                    nowMillis: nowMillis,
                                    clockBoundMillis: clockBoundMillis,
                                    into: &chunk
                                )
                                reached += 1
                                if atomic, let first = chunk.rejected.first { throw ReplicaError(first) }
                                if !atomic, personsWaiting.load(ordering: .relaxed) > 0 { break }
                            }
                            CrashPoint.ingestBeforeCommit.hit()
                            return .commit
                        }
                    }
                    // Back to FULL whatever happened: local writes (acknowledged check-ins) share this
                    // connection, and their commit must reach the disk.
                    if !durable { try db.execute(sql: "PRAGMA synchronous = FULL") }
                    try stored.get()
                    // Committed: only now does the report hold what this transaction stored.
                    report = chunk
                    next = reached
                }
                if atomic { try writeForPerson(write) } else { try writer().writeWithoutTransaction(write) }
                CrashPoint.ingestCommitted.hit()
            } while next < runs.count
            return report
        } catch {
            guard next > 0 else { throw Replica.mapError(error) }
            report.stoppedBy = Replica.mapError(error)
            return report
        }
    }
}
