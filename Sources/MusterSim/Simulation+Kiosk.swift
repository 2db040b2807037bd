import MusterCore
import MusterRules
import MusterSync

/// Carrying a kiosk's inputs into its sync core and the core's outputs out, with events: the
/// simulator's driver of ``SyncCore``.
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
            kiosk.core = try makeCore(for: kiosk)
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot start", cause: error)
        }
        // Every kiosk of the venue is known from the start (the daemon learns them from Avahi).
        try feed(kiosk, venue.kioskIDs.filter { $0 != kiosk.id }.map { .peerDiscovered($0) })
    }

    func feed(_ kiosk: SimKiosk, _ input: SyncInput) throws(SimError) { try feed(kiosk, [input]) }

    /// Gives the kiosk's core these inputs and carries out what it answers, once its CPU gets to
    /// them: sends leave at once (the simulated socket never backs up, so they are reported
    /// written in the same step), the store's heads are read when the core asks, and frames held
    /// back are read once the core resumes their peer.
    func feed(_ kiosk: SimKiosk, _ inputs: [SyncInput]) throws(SimError) {
        // The kiosk lets go of its core while it runs (taken, not copied: a copy retained and then
        // released each of its tables on every input): with two references, every table the core
        // changed was copied whole first (most of the simulator's time at 50 kiosks).
        guard kiosk.up, var core = kiosk.core.take() else { return }
        var cost = Cost.input
        for case .frameReceived(_, .deltas(let deltas)) in inputs { cost += Cost.perDelta * VirtualTime(deltas.count) }
        let start = max(now, kiosk.cpuBusyUntil)
        let done = start + cost * kiosk.slowness
        kiosk.cpuBusyUntil = done
        let uptime = kiosk.uptime(at: now)
        var outputs: [SyncOutput] = []
        var pending = inputs
        while !pending.isEmpty {
            var next: [SyncInput] = []
            for input in pending {
                for output in core.handle(input, now: uptime) {
                    outputs.append(output)
                    if let peer = output.recipient, output.queueWeight > 0 {
                        next.append(.written(peer: peer, weight: output.queueWeight))
                    } else if case .readHeads = output, let heads = try? kiosk.store.heads() {
                        next.append(.storeHeads(heads))
                    } else if case .readForkEvidence = output, let evidence = try? kiosk.store.forkEvidence(),
                        !evidence.isEmpty
                    {
                        next.append(.forkEvidence(evidence))
                    }
                }
            }
            pending = next
        }
        kiosk.core = consume core
        var resumed: [Int] = []
        for output in outputs {
            if case .resumeReading(let peer) = output, let index = indexOf[peer] { resumed.append(index) }
            try execute(output, at: kiosk, time: done)
        }
        for peer in resumed { try readHeldFrames(of: kiosk, from: peer) }
    }

    func execute(_ output: SyncOutput, at kiosk: SimKiosk, time: VirtualTime) throws(SimError) {
        switch output {
        case .send(let peer, let message):
            guard let to = indexOf[peer] else { return }
            let shown = byzantine?.liars[kiosk.index]?.shown(message, to: to) ?? message
            send(shown, from: kiosk.index, to: to, at: time)
        case .sendRange(let peer, let range):
            guard let to = indexOf[peer] else { return }
            var after = range.after
            while after < range.through {
                let limit = min(SyncLimits.batchSize, Int(clamping: range.through - after))
                guard let page = try? kiosk.store.deltas(of: range.author, after: after, limit: limit),
                    let last = page.last
                else { break }
                let shown = byzantine?.liars[kiosk.index]?.shown(.deltas(page), to: to) ?? .deltas(page)
                send(shown, from: kiosk.index, to: to, at: time)
                after = last.seq
            }
        case .store(let group):
            kiosk.waitingGroup = group
            startStore(kiosk, at: time)
        case .setTimer(let timer, let at):
            kiosk.nextTimerGeneration += 1
            kiosk.timers[timer] = kiosk.nextTimerGeneration
            queue.schedule(
                .timer(
                    kiosk: kiosk.index,
                    incarnation: kiosk.incarnation,
                    timer: timer,
                    generation: kiosk.nextTimerGeneration
                ),
                at: max(time, kiosk.virtualTime(ofUptime: at))
            )
        case .openSession(let peer):
            guard let to = indexOf[peer], to != kiosk.index else { return }
            dial(from: kiosk, to: to, at: time)
        case .closeSession(let peer, _):
            guard let to = indexOf[peer] else { return }
            close(kiosk, peer: to, at: time)
        case .pauseReading(let peer):
            if let from = indexOf[peer] { kiosk.paused.insert(from) }
        case .resumeReading(let peer):
            if let from = indexOf[peer] { kiosk.paused.remove(from) }
        case .readHeads, .readForkEvidence:
            break  // read in ``feed(_:_:)``, within the same step
        }
    }

    /// Starts the kiosk's next commit if its store is free: a waiting check-in first, else the
    /// group the core asked for.
    func startStore(_ kiosk: SimKiosk, at time: VirtualTime) {
        guard kiosk.up, !kiosk.storeBusy else { return }
        let job: SimKiosk.StoreJob
        let count: Int
        if !kiosk.waitingCheckIns.isEmpty {
            job = .checkIn(index: kiosk.waitingCheckIns.removeFirst())
            count = 1
        } else if let group = kiosk.waitingGroup {
            kiosk.waitingGroup = nil
            job = .ingest(group)
            count = group.deltas.count
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
                delta =
                    options.doors
                    ? try doorScan(at: kiosk, item: index, wall: wall)
                    : try kiosk.store.appendLocal(
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
            let report: IngestReport
            do {
                report = try kiosk.store.ingest(group.deltas, nowMillis: wall)
            } catch {
                throw SimError("k\(kiosk.index + 1) cannot store a group of \(group.deltas.count) deltas", cause: error)
            }
            log.note(UInt64(report.applied.count) << 32 | UInt64(report.rejected.count))
            if let byzantine, byzantine.liars[kiosk.index] == nil { byzantine.noteStored(report) }
            for delta in report.applied { kiosk.noteStored(delta) }
            if !report.applied.isEmpty { probe(kiosk) }
            if let newest = report.newestAcceptedHLC { _ = kiosk.clock.observe(newest, nowMillis: wall) }
            try feed(kiosk, .stored(StoreResult(id: group.id, report: report)))
            if report.mayChangeRevocations { try revocationsStored(at: kiosk, report) }
        }
    }

    /// The frames held back while the core paused reading their peer, read in order until it
    /// pauses again.
    func readHeldFrames(of kiosk: SimKiosk, from peer: Int) throws(SimError) {
        // One frame taken at a time (not the array, which removing from would then copy whole).
        while kiosk.up, !kiosk.paused.contains(peer),
            let held = kiosk.heldFrames[peer]?.first
        {
            kiosk.heldFrames[peer]?.removeFirst()
            guard kiosk.sessions[peer] == held.session else { continue }
            try feed(kiosk, .frameReceived(from: kiosks[peer].id, held.message))
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
        kiosk.dialAttempts = [:]
        kiosk.timers = [:]
        kiosk.jobs = [:]
        kiosk.storeBusy = false
        kiosk.waitingCheckIns = []
        kiosk.waitingGroup = nil
        kiosk.paused = []
        kiosk.heldFrames = [:]
        kiosk.core = nil
    }

    func restart(_ kiosk: SimKiosk) throws(SimError) {
        // Stopped by its revocation while up: the crash this restart ends found it down already.
        guard !kiosk.revoked else { return }
        do {
            try kiosk.store.reopen()
        } catch {
            throw SimError("k\(kiosk.index + 1) cannot reopen its replica", cause: error)
        }
        try boot(kiosk)
        endFault()
    }
}
