import MusterCore
import MusterStore
import MusterSync

/// Carrying a kiosk's inputs in and its outputs out: the part a real driver (`SyncService`) does
/// with NIO, done here with events.
extension Simulation {
    /// Costs of the simulated machine (a normal kiosk; a slow one multiplies them).
    enum Cost {
        /// Handling one input, plus a little per delta it carries.
        static let input: VirtualTime = 10 * VirtualTime.microsecond
        static let perDelta: VirtualTime = 2 * VirtualTime.microsecond
        /// One commit (fsync) plus the per-delta work of verifying and storing.
        static let commit: VirtualTime = 300 * VirtualTime.microsecond
        static let perStoredDelta: VirtualTime = 10 * VirtualTime.microsecond
    }

    func boot(_ kiosk: SimKiosk) throws(SimError) {
        kiosk.up = true
        kiosk.bootTime = now
        kiosk.cpuBusyUntil = now
        do {
            if let newest = try kiosk.store.newestHLC(author: kiosk.id) { kiosk.clock = HybridClock(last: newest) }
            kiosk.replication = makeReplication(for: kiosk)
            try feed(kiosk, .started(heads: kiosk.store.heads(), epoch: kiosk.store.epoch()))
        } catch let error as SimError {
            throw error
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot start", cause: error)
        }
    }

    /// Gives the kiosk one input and carries out what it answers, once its CPU gets to it.
    func feed(_ kiosk: SimKiosk, _ input: ReplicationInput) throws(SimError) {
        guard kiosk.up, var replication = kiosk.replication else { return }
        var cost = Cost.input
        if case .frame(.deltas(let deltas), _) = input { cost += Cost.perDelta * VirtualTime(deltas.count) }
        let start = max(now, kiosk.cpuBusyUntil)
        let done = start + cost * kiosk.slowness
        kiosk.cpuBusyUntil = done
        // The kiosk lets go of its copy while the core runs: with two references, every table the
        // core changed was copied whole first (most of the simulator's time at 50 kiosks).
        kiosk.replication = nil
        let outputs = replication.handle(input, now: kiosk.uptime(at: now), store: kiosk.store)
        kiosk.replication = replication
        for output in outputs { try execute(output, at: kiosk, time: done) }
    }

    func execute(_ output: ReplicationOutput, at kiosk: SimKiosk, time: VirtualTime) throws(SimError) {
        switch output {
        case .send(let message, let peer):
            guard let to = indexOf[peer] else { return }
            let shown = byzantine?.liars[kiosk.index]?.shown(message, to: to) ?? message
            send(shown, from: kiosk.index, to: to, at: time)
        case .store(let id, let deltas, let peer):
            guard let from = indexOf[peer] else { return }
            kiosk.storingDeltas[from, default: 0] += deltas.count
            kiosk.waitingIngests.append(SimKiosk.Ingest(id: id, deltas: deltas, from: from))
            startStore(kiosk, at: time)
        case .setTimer(let id, let at):
            kiosk.nextTimerGeneration += 1
            kiosk.timers[id] = kiosk.nextTimerGeneration
            queue.schedule(
                .timer(
                    kiosk: kiosk.index,
                    incarnation: kiosk.incarnation,
                    id: id,
                    generation: kiosk.nextTimerGeneration
                ),
                at: max(time, kiosk.virtualTime(ofUptime: at))
            )
        case .cancelTimer(let id):
            kiosk.timers[id] = nil
        case .open(let peer):
            guard let to = indexOf[peer], to != kiosk.index else { return }
            dial(from: kiosk, to: to, at: time)
        case .close(let peer):
            guard let to = indexOf[peer] else { return }
            close(kiosk, peer: to, at: time)
        }
    }

    /// Starts the kiosk's next commit if its store is free: a waiting check-in first, else every
    /// peer's batch that waits, up to `SyncLimits.groupCommitDeltas` (at least one), as one group.
    func startStore(_ kiosk: SimKiosk, at time: VirtualTime) {
        guard kiosk.up, !kiosk.storeBusy else { return }
        let job: SimKiosk.StoreJob
        let count: Int
        if !kiosk.waitingCheckIns.isEmpty {
            job = .checkIn(index: kiosk.waitingCheckIns.removeFirst())
            count = 1
        } else if !kiosk.waitingIngests.isEmpty {
            let taken = GroupCommit.size(of: kiosk.waitingIngests) { $0.deltas.count }
            let group = Array(kiosk.waitingIngests.prefix(taken))
            kiosk.waitingIngests.removeFirst(taken)
            job = .ingest(group)
            count = group.reduce(0) { $0 + $1.deltas.count }
        } else {
            return
        }
        kiosk.storeBusy = true
        let done = time + (Cost.commit + Cost.perStoredDelta * VirtualTime(count)) * kiosk.slowness
        kiosk.nextJob += 1
        kiosk.jobs[kiosk.nextJob] = job
        queue.schedule(.storeDone(kiosk: kiosk.index, incarnation: kiosk.incarnation, job: kiosk.nextJob), at: done)
    }

    /// An attendee checks in at a kiosk; if the kiosk is down they are turned away (never acknowledged).
    func checkIn(at kiosk: SimKiosk, index: Int) throws(SimError) {
        checkInsLeft -= 1
        guard kiosk.up else {
            refusedCheckIns += 1
            startProbing()
            return
        }
        if let liar = byzantine?.liars[kiosk.index] {
            try lie(liar, at: kiosk, item: index)
            return
        }
        pendingCheckIns += 1
        kiosk.waitingCheckIns.append(index)
        startStore(kiosk, at: now)
    }

    /// A store job is done: it happens in the real store now, and its result goes to the kiosk.
    func complete(_ job: SimKiosk.StoreJob, at kiosk: SimKiosk) throws(SimError) {
        let wall = kiosk.wallMillis(at: now)
        switch job {
        case .checkIn(let index):
            let delta: SignedDelta
            do {
                delta = try kiosk.store.appendLocal(
                    SimVenue.checkInBody(index: index, kiosk: kiosk.index),
                    keyPair: kiosk.key,
                    nowMillis: wall
                ) { _ in kiosk.clock.tick(nowMillis: wall) }
            } catch {
                throw SimError("k\(kiosk.index + 1) cannot commit check-in \(index)", cause: error)
            }
            pendingCheckIns -= 1
            kiosk.noteStored(delta)
            written[delta.ref] = delta
            writtenHash &+= SimKiosk.refHash(delta)
            // Committed before the screen says so: now it is acknowledged.
            acknowledged.append(delta.ref)
            lastAckTime = now
            try feed(kiosk, .localCommit([delta]))
            startProbing()
        case .ingest(let group):
            for ingest in group {
                let report: IngestReport
                do {
                    report = try kiosk.store.ingest(ingest.deltas, nowMillis: wall)
                } catch {
                    throw SimError("k\(kiosk.index + 1) cannot store a batch from k\(ingest.from + 1)", cause: error)
                }
                log.note(UInt64(report.applied.count) << 32 | UInt64(report.rejected.count))
                if let byzantine, byzantine.liars[kiosk.index] == nil { byzantine.noteStored(report) }
                for delta in report.applied { kiosk.noteStored(delta) }
                if !report.applied.isEmpty { probe(kiosk) }
                if let newest = report.newestAcceptedHLC { _ = kiosk.clock.observe(newest, nowMillis: wall) }
                try feed(kiosk, .stored(id: ingest.id, report, from: venue.kioskIDs[ingest.from]))
            }
            var peers: [Int] = []
            for ingest in group {
                if !peers.contains(ingest.from) { peers.append(ingest.from) }
                kiosk.storingDeltas[ingest.from] = max(
                    0,
                    kiosk.storingDeltas[ingest.from, default: 0] - ingest.deltas.count
                )
            }
            for peer in peers { try readHeldFrames(of: kiosk, from: peer) }
        }
    }

    /// The frames a session held back while too many of its deltas waited for the store, read in
    /// order until too many wait again.
    func readHeldFrames(of kiosk: SimKiosk, from peer: Int) throws(SimError) {
        // One frame taken at a time (not the array, which removing from would then copy whole).
        while kiosk.up, kiosk.storingDeltas[peer, default: 0] <= SyncLimits.readAheadDeltas,
            let held = kiosk.heldFrames[peer]?.first
        {
            kiosk.heldFrames[peer]?.removeFirst()
            guard kiosk.sessions[peer] == held.session else { continue }
            try feed(kiosk, .frame(held.message, from: kiosks[peer].id))
        }
    }

    /// The kiosk loses power: its sessions, timers, sync state and uncommitted work are gone; its
    /// peers notice only after the silence timeout.
    func crash(_ kiosk: SimKiosk) {
        guard kiosk.up else { return }
        faultsOpen += 1
        for peer in kiosk.sessions.keys.sorted() {
            queue.schedule(
                .sessionLost(kiosk: peer, peer: kiosk.index, session: kiosk.sessions[peer]!),
                at: now + SyncLimits.silenceTimeout.nanoseconds
            )
        }
        let unacknowledged =
            kiosk.waitingCheckIns.count
            + kiosk.jobs.values.filter { if case .checkIn = $0 { true } else { false } }.count
        lostUnacknowledged += unacknowledged
        pendingCheckIns -= unacknowledged
        kiosk.up = false
        kiosk.incarnation += 1
        for (peer, session) in kiosk.sessions { drop(session, at: kiosk, peer: peer) }
        kiosk.dialing = []
        kiosk.timers = [:]
        kiosk.jobs = [:]
        kiosk.storeBusy = false
        kiosk.waitingCheckIns = []
        kiosk.waitingIngests = []
        kiosk.storingDeltas = [:]
        kiosk.heldFrames = [:]
        kiosk.replication = nil
    }

    func restart(_ kiosk: SimKiosk) throws(SimError) {
        do {
            try kiosk.store.reopen()
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot reopen its replica", cause: error)
        }
        try boot(kiosk)
        endFault()
    }
}
