import Foundation
import GRDB
public import MusterCore
import MusterCrypto

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
        let (runs, planned) = Self.plan(deltas, first: policy.organizer)
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

    /// A batch's runs (``runsByAuthor(_:first:)``) and the report it starts from, which already
    /// counts as duplicates the byte-for-byte copies the runs left out. Every store that ingests
    /// (this replica, the simulator's memory store) starts here, so they count copies alike.
    public static func plan(
        _ deltas: [SignedDelta],
        first: AuthorID?
    ) -> (runs: [[SignedDelta]], report: IngestReport) {
        let runs = runsByAuthor(deltas, first: first)
        var report = IngestReport()
        report.duplicates = deltas.count - runs.reduce(0) { $0 + $1.count }
        return (runs, report)
    }

    /// Splits a batch into per-author runs sorted by seq, keeping authors in first-seen order.
    /// The organizer's run goes first: it may enroll or revoke the authors of the other runs.
    ///
    /// A batch may hold several deltas at one seq of one author: copies, forks, or a refused delta
    /// and then a good one (a group commit joins what a peer sent in separate messages). The first
    /// at each seq, in arrival order, goes in the author's run; the second in a run of its own after
    /// every first run, and so on. Each is then judged as if it had come in a later batch: a copy
    /// of a stored delta is a duplicate, a different one is a fork, and one after a refused delta
    /// is stored if it is good (a group of an insider's refused lock and its genuine check-in at the
    /// same seq had dropped the check-in, where separate batches stored it). A byte-for-byte copy
    /// of a delta already placed is left out (the caller counts it as a duplicate): copies of a
    /// peer's push that arrive from several sessions share most groups of a busy kiosk.
    public static func runsByAuthor(_ deltas: [SignedDelta], first: AuthorID? = nil) -> [[SignedDelta]] {
        if isOneOrderedRun(deltas) { return deltas.isEmpty ? [] : [deltas] }
        var order: [AuthorID] = []
        var runs: [AuthorID: [(index: Int, delta: SignedDelta)]] = [:]
        for (index, delta) in deltas.enumerated() {
            let author = delta.author
            if runs[author] == nil { order.append(author) }
            runs[author, default: []].append((index, delta))
        }
        if let first, let index = order.firstIndex(of: first), index > 0 {
            order.remove(at: index)
            order.insert(first, at: 0)
        }
        // layers[k]: each author's k-th delta at each of its seqs, authors in order.
        var layers: [[[SignedDelta]]] = []
        for author in order {
            let sorted = runs[author]!.sorted { ($0.delta.seq, $0.index) < ($1.delta.seq, $1.index) }
            var byLayer: [[SignedDelta]] = []
            var layer = 0
            var previous: UInt64?
            for entry in sorted {
                if entry.delta.seq == previous {
                    // A byte-for-byte copy of one at this seq meets the same fate: a duplicate.
                    guard !byLayer.prefix(layer + 1).contains(where: { $0.last == entry.delta }) else { continue }
                    layer += 1
                } else {
                    layer = 0
                }
                previous = entry.delta.seq
                if byLayer.count == layer { byLayer.append([]) }
                byLayer[layer].append(entry.delta)
            }
            for (index, run) in byLayer.enumerated() {
                if layers.count == index { layers.append([]) }
                layers[index].append(run)
            }
        }
        return layers.flatMap { $0 }
    }

    /// The common case, and the whole of a catch-up: a peer's page is one author's deltas in
    /// ascending seq. Checked on the envelope bytes, without building an ``AuthorID`` per delta.
    private static func isOneOrderedRun(_ deltas: [SignedDelta]) -> Bool {
        guard let first = deltas.first else { return true }
        let author = first.envelope[SignedDelta.authorRange]
        var previous = first.seq
        for delta in deltas.dropFirst() {
            let seq = delta.seq
            guard seq > previous, delta.envelope[SignedDelta.authorRange].elementsEqual(author) else { return false }
            previous = seq
        }
        return true
    }
}
