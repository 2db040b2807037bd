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
                                try ingestRun(
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

    /// - Parameter offered: the whole batch the run came in (what its sender knows; see
    ///   ``admitAuthor(_:record:forkCut:fresh:offered:db:into:)``).
    /// - Parameter submitted: an organizer submission (atomic), not a peer's batch: a version of a
    ///   seq the organizer's chain already has is refused (the `muster` that signed it signs again
    ///   on the head), never resolved against the one held, which its own command acknowledged.
    private func ingestRun(
        _ run: [SignedDelta],
        offered: [SignedDelta],
        submitted: Bool = false,
        db: Database,
        nowMillis: UInt64,
        clockBoundMillis: UInt64,
        into report: inout IngestReport
    ) throws {
        guard let author = run.first?.author else { return }
        let record = try AuthorRecord.fetch(author, policy: policy, db: db)
        let head = record.head
        // Moved by a fork this run proves below.
        var forkCut = record.forkCut
        var fresh: [SignedDelta] = []
        for delta in run {
            // One delta per seq in a run (``runsByAuthor(_:first:)``).
            if delta.seq > head.seq {
                fresh.append(delta)
                continue
            }
            if let cut = forkCut, delta.seq >= cut {
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
                try ingestRun(
                    Self.chain(from: delta, in: run),
                    offered: offered,
                    db: db,
                    nowMillis: nowMillis,
                    clockBoundMillis: clockBoundMillis,
                    into: &report
                )
                return
            } else {
                try recordFork(delta, db: db, nowMillis: nowMillis, into: &report)
                forkCut = try Self.forkCut(of: author, db: db)
            }
        }
        // Keep the contiguous prefix: it ends with a delta whose own signature authenticates it.
        let (prefix, gap) = head.contiguousPrefix(of: fresh)
        if let gap { report.rejected.append(gap) }
        guard !prefix.isEmpty else { return }
        fresh.removeSubrange(prefix.endIndex...)
        guard
            let byDevice = try admitAuthor(
                author,
                record: record,
                forkCut: forkCut,
                fresh: &fresh,
                offered: offered,
                db: db,
                into: &report
            )
        else { return }
        // Time moves forward along the chain, inside the window the author's certificate opens.
        var previousHLC = record.headHLC
        let certificateHLC = record.certificateHLC

        let hashes: [[UInt8]]
        do {
            hashes = try ChainVerifier.verify(run: fresh, after: head)
        } catch {
            report.rejected.append(error)
            return
        }
        var stored: (seq: UInt64, hash: [UInt8])?
        var refused = false
        for (index, (delta, hash)) in zip(fresh, hashes).enumerated() {
            let decoded: Delta
            do {
                try policy.authorize(delta, byDevice: byDevice)
                decoded = try decodeVerified(delta)
                try policy.checkMeaning(decoded)
                try policy.checkTime(decoded.hlc, after: previousHLC, certificate: certificateHLC, ref: delta.ref)
            } catch {
                report.rejected.append(error)
                refused = true
                break
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
            report.applied.append(delta)
            if verified { report.signatureChecked.insert(delta.ref) }
            if case .revoke(let payload) = decoded.body { report.revocations.append(payload) }
            let stampMillis = delta.hlc.physicalMillis
            if stampMillis > nowMillis &+ clockBoundMillis {
                report.clockWarnings.append(delta.ref)
                try db.run(
                    "INSERT OR REPLACE INTO clock_warning(author, seq, ahead_ms) VALUES (?, ?, ?)",
                    [Data(author.bytes), Int64(delta.seq), Int64(stampMillis - nowMillis)]
                )
            } else {
                report.newestAcceptedHLC = max(report.newestAcceptedHLC ?? .zero, delta.hlc)
            }
        }
        // The head moves once per run, to the last delta stored (in the same transaction).
        if let stored { try Self.moveHead(of: author, to: stored.seq, hash: stored.hash, db: db) }
        if refused {
            // The run stopped at a refused delta: the last one stored was authenticated through the
            // chain only. Pages served to peers end on a delta whose own signature was checked, so
            // check it now, or nothing of this run could ever be passed on (found by the Byzantine
            // simulator: a liar's refused delta after honest-looking ones split the venue).
            if let stored, let last = fresh.first(where: { $0.seq == stored.seq }),
                Self.hasValidSignature(last, author: author)
            {
                try db.execute(
                    sql: "UPDATE delta SET sig_verified = 1 WHERE author = ? AND seq = ?",
                    arguments: [Data(author.bytes), Int64(clamping: stored.seq)]
                )
            }
            return
        }
    }

    /// How often a long run has its own signatures checked on ingest (see ``deltas(of:after:limit:)``): at most
    /// this many deltas lie between two checked ones, well under a sync message's 2,000.
    static let verifiedStride = 500

    static func hasValidSignature(_ delta: SignedDelta, author: AuthorID) -> Bool {
        guard let key = try? SigningPublicKey(bytes: author.bytes) else { return false }
        return key.isValidSignature(delta.signature, for: delta.envelope)
    }

    /// Only the organizer, kiosks and organizer devices on the roster may author deltas; a revoked
    /// author's deltas after its watermark are cut off. Returns nil when nothing of the run remains,
    /// else whether the author is an organizer device (from the run's ``AuthorRecord``, so this
    /// costs no query unless the author forked or was revoked).
    private func admitAuthor(
        _ author: AuthorID,
        record: AuthorRecord,
        forkCut: UInt64?,
        fresh: inout [SignedDelta],
        offered: [SignedDelta],
        db: Database,
        into report: inout IngestReport
    ) throws -> Bool? {
        if let cut = forkCut, let index = fresh.firstIndex(where: { $0.seq >= cut }) {
            report.rejected.append(
                DeltaRejection(
                    .forked,
                    "\(author) forked at seq \(cut); its chain ends before it",
                    ref: fresh[index].ref
                )
            )
            // Whoever offered less than the whole evidence (one version, or a continuation) may not
            // know of the fork: the evidence goes back out with the report. Whoever offered both
            // versions knows, so two replicas that both know never bounce it between them.
            let evidence = try Self.forkEvidence(of: author, seq: cut, db: db)
            if !evidence.allSatisfy({ offered.contains($0) }) { report.forkEvidence += evidence }
            fresh.removeSubrange(index...)
            if fresh.isEmpty { return nil }
        }
        switch record.membership {
        case .organizer, .enrolled:
            return false
        case .device:
            return true
        case .unknown:
            report.rejected.append(
                DeltaRejection(.notEnrolled, "\(author) is not on the venue roster", ref: fresh.first?.ref)
            )
            return nil
        case .revoked(var watermark, let evidence):
            // A delta at the watermark must be the one the revocation names by hash; another version
            // there lowers the watermark below it, as if the revocation had found it already stored.
            if let expected = try Data.fetchOne(
                db,
                sql: "SELECT watermark_hash FROM revocation WHERE kiosk = ?",
                arguments: [Data(author.bytes)]
            ), let atMark = fresh.first(where: { $0.seq == watermark }),
                Blake2b.hash256(atMark.envelope) != Array(expected)
            {
                watermark -= 1
                try Self.recordRevocation(author, watermark: watermark, hash: nil, evidence: evidence, db: db)
            }
            if let cut = fresh.firstIndex(where: { $0.seq > watermark }) {
                report.rejected.append(
                    DeltaRejection(.revoked, "kiosk \(author) was revoked after seq \(watermark)", ref: fresh[cut].ref)
                )
                fresh.removeSubrange(cut...)
            }
            // A revoked device's deltas up to its watermark are still a device's.
            return fresh.isEmpty ? nil : record.isDevice
        }
    }

    private func decodeVerified(_ delta: SignedDelta) throws(DeltaRejection) -> Delta {
        do {
            return try delta.decode()
        } catch {
            throw DeltaRejection(.malformed, "delta does not decode: \(error)", ref: delta.ref)
        }
    }

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
    private func recordFork(
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
    private func resolveOrganizerFork(
        _ delta: SignedDelta,
        offered: [SignedDelta],
        db: Database,
        nowMillis: UInt64,
        into report: inout IngestReport
    ) throws -> Bool {
        guard admitsSecondVersion(delta, byDevice: false, into: &report) else { return false }
        let author = Data(delta.author.bytes)
        let seq = Int64(clamping: delta.seq)
        var parent = Delta.genesisPrev
        var parentHLC: HLC?
        if delta.seq > 1 {
            let held = try Row.fetchOne(
                db,
                sql: "SELECT hash, envelope, signature FROM delta WHERE author = ? AND seq = ?",
                arguments: [author, seq - 1]
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
        // A version that could not be stored in place of the one held never contends: it would
        // drop the branch and then be refused itself (a stamp before its parent's could beat
        // every honest version, leaving no version of the seq anywhere).
        do throws(DeltaRejection) {
            let decoded = try decodeVerified(delta)
            try policy.checkMeaning(decoded)
            try policy.checkTime(decoded.hlc, after: parentHLC, certificate: nil, ref: delta.ref)
        } catch {
            report.rejected.append(error)
            return false
        }
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq = ?",
                arguments: [author, seq]
            )
        else { return false }
        let held = try SignedDelta(row: row)
        let (winner, loser) = Self.organizerVersion(delta, beats: held) ? (delta, held) : (held, delta)
        // The evidence: the version kept and one it beat, for `muster status` and for peers.
        let evidence = [winner, loser]
        let known = try Self.forkEvidence(of: delta.author, seq: delta.seq, db: db)
        if Set(known.map(\.signature)) != Set(evidence.map(\.signature)) {
            try db.execute(sql: "DELETE FROM fork_evidence WHERE author = ? AND seq = ?", arguments: [author, seq])
            for proof in evidence {
                try db.execute(
                    sql: "INSERT INTO fork_evidence(author, seq, envelope, signature, seen_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [author, seq, Data(proof.envelope), Data(proof.signature), Int64(clamping: nowMillis)]
                )
            }
            if known.isEmpty { report.organizerForks.append(delta.ref) }
        }
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
        // What this batch stored of the losing branch is gone again: not to be relayed, and its
        // revocations not acted on (a kiosk named in one would wipe itself).
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
                arguments: [author, seq, Int64(DeltaKind.revoke.rawValue)]
            ) ?? false
        _ = try Self.truncate(delta.author, after: delta.seq - 1, db: db)
        if dropsRevocations { _ = try Self.rederiveRevocations(policy: policy, db: db) }
        try Materializer.rebuild(db: db)
        return true
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

    /// Appends one verified, authorized delta to the log, moves the author's head (unless the caller
    /// moves it once for a whole run), and materializes it.
    func store(
        _ delta: SignedDelta,
        decoded: Delta,
        hash: [UInt8],
        verified: Bool,
        db: Database,
        nowMillis: UInt64,
        moveHead: Bool = true
    ) throws {
        try HotStatements.run(.insertDelta, hot, db: db) { row in
            row.blob(decoded.author.bytes)
            row.int(Int64(decoded.seq))
            row.int(Int64(delta.kind.rawValue))
            row.int(Int64(decoded.hlc.packed))
            row.blob(hash)
            row.blob(delta.envelope)
            row.blob(delta.signature)
            row.int(Int64(nowMillis))
            row.bool(verified)
        }
        if moveHead { try Self.moveHead(of: decoded.author, to: decoded.seq, hash: hash, db: db) }
        try Materializer.apply(decoded, hash: hash, db: db, hot: hot)
        if try Self.applyRoster(delta, decoded: decoded, policy: policy, db: db) {
            try Materializer.rebuild(db: db)
        }
    }

    static func moveHead(of author: AuthorID, to seq: UInt64, hash: [UInt8], db: Database) throws {
        try db.run(
            """
            INSERT INTO head(author, seq, hash) VALUES (?, ?, ?)
            ON CONFLICT(author) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
            """,
            [Data(author.bytes), Int64(seq), Data(hash)]
        )
    }

    static func head(of author: AuthorID, db: Database) throws -> AuthorHead {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT seq, hash FROM head WHERE author = ?"),
                arguments: [Data(author.bytes)]
            )
        else { return .empty(author) }
        let seq: Int64 = row["seq"]
        let hash: Data = row["hash"]
        return AuthorHead(author: author, seq: UInt64(seq), hash: Array(hash))
    }

    /// The newest delta this replica holds from `author`.
    public func head(of author: AuthorID) throws(ReplicaError) -> AuthorHead {
        try read { db in try Self.head(of: author, db: db) }
    }

    /// Every author's head, for status and (later) replication.
    public func heads() throws(ReplicaError) -> [AuthorHead] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT author, seq, hash FROM head ORDER BY author").compactMap { row in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                let hash: Data = row["hash"]
                return AuthorID(bytes: author).map { AuthorHead(author: $0, seq: UInt64(seq), hash: Array(hash)) }
            }
        }
    }

    /// The stored deltas of one author after `seq`, oldest first, as a page that a peer can verify.
    ///
    /// A page always ends on a delta whose own signature this replica checked (the newest of a
    /// verified run, or a local write), so the receiver can authenticate the whole page with that one
    /// signature and the hash chain. The page may therefore be a little shorter or longer than `limit`.
    public func deltas(
        of author: AuthorID,
        after seq: UInt64 = 0,
        limit: Int = 10_000
    ) throws(ReplicaError)
        -> [SignedDelta]
    {
        try read { db in
            let key = Data(author.bytes)
            let target = Int64(clamping: seq) + Int64(max(limit, 1))
            // Prepared once per reader connection: peers ask for pages many times a second.
            let end =
                try Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT MAX(seq) FROM delta WHERE author = ? AND sig_verified = 1 AND seq > ? AND seq <= ?"
                    ),
                    arguments: [key, Int64(clamping: seq), target]
                )
                ?? Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT MIN(seq) FROM delta WHERE author = ? AND sig_verified = 1 AND seq > ?"
                    ),
                    arguments: [key, target]
                )
            guard let end else { return [] }
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT envelope, signature FROM delta WHERE author = ? AND seq > ? AND seq <= ? ORDER BY seq"
                ),
                arguments: [key, Int64(clamping: seq), end]
            ).map { row in
                try SignedDelta(row: row)
            }
        }
    }
}

extension Replica {
    /// The newest timestamp among an author's deltas, so a restarted kiosk's clock never runs
    /// behind what it already wrote.
    public func newestHLC(author: AuthorID) throws(ReplicaError) -> HLC? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(hlc) FROM delta WHERE author = ?", arguments: [Data(author.bytes)])
                .map { HLC(packed: UInt64($0)) }
        }
    }
}

extension Replica {
    /// The newest timestamp of any delta in the replica (for clock sanity checks).
    public func newestHLC() throws(ReplicaError) -> HLC? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(hlc) FROM delta").map { HLC(packed: UInt64($0)) }
        }
    }
}
