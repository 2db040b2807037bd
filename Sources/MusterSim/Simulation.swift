import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// N kiosks, their stores and their replication logic on a simulated network, run in virtual time
/// from one seed: the same options give the same events, in the same order, every time.
///
/// One thread, no clock, no sockets: every input reaches a kiosk as an event popped from
/// ``EventQueue``, and every output the kiosk gives back becomes a later event (a frame's arrival, a
/// store's completion, a timer). Faults are events too. After the workload and every fault are over
/// the venue is probed every millisecond until every kiosk holds every delta written, and then
/// ``Checker`` judges the history.
public final class Simulation {
    public let options: SimOptions
    let venue: SimVenue
    var kiosks: [SimKiosk] = []
    var network: SimNetwork
    var queue = EventQueue()
    let log = EventLog()
    var now: VirtualTime = 0
    var frameRandom: SimRandom
    var replicationRandom: SimRandom
    let indexOf: [AuthorID: Int]
    let directory: String?
    /// The liars and what they did, in a Byzantine run.
    var byzantine: ByzantineRun?
    /// The organizer's import and lock every store starts with (a Byzantine or doors run), if any.
    let organizerLog: [SignedDelta]?
    /// Doors runs: each attendee's admissions, in the order they were written (attendee key -> refs),
    /// and the admissions a door made although it held an earlier one of the same attendee.
    var admissions: [String: [DeltaRef]] = [:]
    var admittedAfterHearing = 0

    // The history, for the checker.
    var written: [DeltaRef: SignedDelta] = [:]
    var writtenHash: UInt64 = 0
    var acknowledged: [DeltaRef] = []
    var refusedCheckIns = 0
    var lostUnacknowledged = 0

    // Progress.
    var checkInsLeft: Int
    /// Check-ins queued on a kiosk's store, not yet committed.
    var pendingCheckIns = 0
    var faultsOpen = 0
    var lastAckTime: VirtualTime = 0
    var lastHealTime: VirtualTime = 0
    var probing = false
    var convergedAt: VirtualTime?
    /// While probing: how many kiosks hold exactly the deltas written.
    var completeKiosks = 0
    var sendsWithoutSession = 0
    var framesLost = 0
    /// Which kiosk dialed each live session (crossed dials keep the lower key's).
    var initiators: [UInt64: Int] = [:]
    /// Sessions replaced in place by a crossed dial.
    var sessionsReplaced = 0
    /// Connections that only handed newer network keys over (``ConnectionLife``'s rekey session).
    var rekeySessions = 0
    /// The venue certificates admission has checked, by kiosk (``meet(_:_:)``).
    var verifiedCertificates: [AuthorID: EnrollPayload] = [:]

    /// Sets up the venue, the kiosks' stores, the workload and the faults (nothing runs yet).
    public init(options: SimOptions) throws(SimError) {
        try Self.validate(options)
        self.options = options
        let root = SimRandom(seed: options.seed)
        var venueRandom = root.fork(RandomStream.venue.rawValue)
        venue = try SimVenue(kiosks: options.kiosks, random: &venueRandom)
        frameRandom = root.fork(RandomStream.frames.rawValue)
        replicationRandom = root.fork(RandomStream.replication.rawValue)
        indexOf = Dictionary(uniqueKeysWithValues: venue.kioskIDs.enumerated().map { ($1, $0) })
        if options.byzantine > 0 || options.organizerFork || options.revoke {
            // Its own stream: an honest run's draws, and so its event log, do not change.
            var liarRandom = root.fork(RandomStream.byzantine.rawValue)
            byzantine = try ByzantineRun(options: options, venue: venue, random: &liarRandom)
        }
        checkInsLeft = options.checkIns
        if let byzantine {
            organizerLog = byzantine.organizerLog
        } else if options.doors {
            organizerLog = try venue.organizerLog(attendees: Self.doorAttendees(options), rules: Self.doorRules)
        } else {
            organizerLog = nil
        }

        var faultRandom = root.fork(RandomStream.faults.rawValue)
        let slow = Self.pick(options.faults.slow ? max(1, options.kiosks / 10) : 0, of: options.kiosks, &faultRandom)
        var networkRandom = root.fork(RandomStream.network.rawValue)
        network = SimNetwork(kioskCount: options.kiosks, slow: slow, random: &networkRandom)

        directory = options.store == .sqlite ? try Self.makeDirectory(seed: options.seed) : nil
        let signatures = SignatureCache()
        let envelopes = EnvelopeCache()
        let roster = MemoryRoster(certificates: venue.certificates)
        for index in 0..<options.kiosks {
            let store = try openStore(
                index,
                directory: directory,
                roster: roster,
                signatures: signatures,
                envelopes: envelopes
            ) {
                Hex.encode(venueRandom.bytes(16))
            }
            let skew = options.faults.skew
            kiosks.append(
                SimKiosk(
                    index: index,
                    id: venue.kioskIDs[index],
                    key: venue.kioskKeys[index],
                    store: store,
                    networkKey: venue.networkKey,
                    slowness: (slow[index] ? 8 : 1) * Int64(options.cpuScale),
                    wallOffsetMillis: skew ? faultRandom.int64(in: -60_000...60_000) : 0,
                    rate: skew ? 1 + Double(faultRandom.int64(in: -2_000...2_000)) / 1_000_000 : 1
                )
            )
        }
        // Written before the doors open, and held by every store from the start.
        for delta in organizerLog ?? [] {
            written[delta.ref] = delta
            writtenHash &+= SimKiosk.refHash(delta)
            for kiosk in kiosks { kiosk.noteStored(delta) }
        }
        var workloadRandom = root.fork(RandomStream.workload.rawValue)
        scheduleWorkload(&workloadRandom)
        scheduleFaults(&faultRandom)
    }

    /// Options that cannot make a run.
    private static func validate(_ options: SimOptions) throws(SimError) {
        guard options.kiosks >= 2 else { throw SimError("a venue needs at least 2 kiosks, not \(options.kiosks)") }
        guard options.checkIns >= 1 else { throw SimError("the workload needs at least 1 check-in") }
        if options.organizerFork && !options.faults.partition {
            throw SimError("the organizer signs on two machines during the partition: it needs --partition")
        }
        if options.revoke && !options.faults.partition {
            throw SimError("the organizer revokes a kiosk across the partition: it needs --partition")
        }
        if options.doors
            && (options.store != .sqlite || options.byzantine > 0 || options.organizerFork || options.revoke)
        {
            throw SimError(
                "--doors reads admissions from the real replica: --store sqlite, and no liars, fork or revocation"
            )
        }
        if options.revoke && options.organizerFork {
            throw SimError(
                "--revoke and --organizer-fork each sign on the organizer's head at the partition: one at a time"
            )
        }
    }

    /// Kiosk `index`'s store: the real replica in `directory`, else the memory store (its epoch
    /// from `epoch`); seeded with the organizer's log in a Byzantine run, a liar's wrapped.
    private func openStore(
        _ index: Int,
        directory: String?,
        roster: MemoryRoster,
        signatures: SignatureCache,
        envelopes: EnvelopeCache,
        epoch: () -> String
    ) throws(SimError) -> any KioskStore {
        do {
            if let directory {
                let replica = try ReplicaStore(
                    path: "\(directory)/k\(index + 1).sqlite",
                    policy: venue.policy,
                    certificates: venue.certificates,
                    signatures: signatures
                )
                if let log = organizerLog { try replica.seed(log) }
                return byzantine?.liars[index].map { LiarStore(inner: replica, liar: $0) } ?? replica
            }
            let memory = MemoryStore(
                policy: venue.policy,
                roster: roster,
                epoch: epoch(),
                signatures: signatures,
                envelopes: envelopes
            )
            if let log = organizerLog { try memory.seed(log) }
            return memory
        } catch {
            throw SimError("cannot open kiosk k\(index + 1)'s store", cause: error)
        }
    }

    /// The run's directory for its SQLite replicas, in memory-backed /dev/shm where there is one: the
    /// store's time is virtual (``Cost``), and a real fsync per commit would only make the wall clock slower.
    private static func makeDirectory(seed: UInt64) throws(SimError) -> String {
        let base =
            FileManager.default.fileExists(atPath: "/dev/shm")
            ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        removeOrphans(in: base)
        let path = "\(base)/muster-sim-\(getpid())-\(seed)-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SimError("cannot create the run's directory \(path)", cause: error)
        }
        return path
    }

    /// Removes the run directories of simulator processes that are gone (killed before their
    /// runs ended): each directory is named after the process that made it.
    private static func removeOrphans(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix("muster-sim-") {
            guard let pid = Int32(name.dropFirst("muster-sim-".count).prefix { $0 != "-" }), pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: "\(base)/\(name)")
        }
    }

    deinit {
        for kiosk in kiosks { ((kiosk.store as? LiarStore)?.inner ?? kiosk.store as? ReplicaStore)?.close() }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The sync core of one life of `kiosk`, seeded from the run's seed, the kiosk and the life.
    func makeCore(for kiosk: SimKiosk) throws -> SyncCore {
        var configuration = SyncCore.Configuration(
            me: kiosk.id,
            epoch: try kiosk.store.epoch(),
            organizer: venue.policy.organizer
        )
        if let threshold = options.fullMeshThreshold { configuration.fullMeshThreshold = threshold }
        var random = replicationRandom.fork(UInt64(kiosk.index) << 20 | kiosk.incarnation)
        return SyncCore(configuration: configuration, heads: try kiosk.store.heads(), seed: random.next())
    }

    /// `count` distinct indices below `total`, flagged.
    static func pick(_ count: Int, of total: Int, _ random: inout SimRandom) -> [Bool] {
        var flags = [Bool](repeating: false, count: total)
        var indices = Array(0..<total)
        for slot in 0..<min(count, total) {
            let chosen = random.int(in: slot...(total - 1))
            indices.swapAt(slot, chosen)
            flags[indices[slot]] = true
        }
        return flags
    }

    /// Runs to convergence (or until ``SimOptions/patience`` after the last fault) and checks the history.
    public func run() throws(SimError) -> SimResult {
        let started = ContinuousClock.now
        for kiosk in kiosks {
            if kiosk.index == 0 || options.stagger == .zero {
                try boot(kiosk)
            } else {
                kiosk.up = false
                queue.schedule(.boot(kiosk: kiosk.index), at: options.stagger.nanoseconds * VirtualTime(kiosk.index))
            }
        }
        let patience = options.patience.nanoseconds
        while convergedAt == nil, let entry = queue.pop() {
            now = entry.time
            if checkInsLeft == 0, faultsOpen == 0, now > max(lastHealTime, lastAckTime) + patience { break }
            // A storm of frames (a forked chain repaired and refused over and over) can hold virtual
            // time nearly still: the run ends, not converged, rather than never.
            if byzantine != nil, log.count >= ByzantineRun.eventLimit { break }
            log.record(now, entry.event)
            try handle(entry.event)
        }
        let wall = ContinuousClock.now - started
        return try result(wall: wall)
    }

    func handle(_ event: SimEvent) throws(SimError) {
        switch event {
        case .checkIn(let kiosk, let index): try checkIn(at: kiosks[kiosk], index: index)
        case .deliver(let from, let to, let session, let message):
            try deliver(message, from: from, to: to, session: session)
        case .connect(let from, let to, let incarnation): try connect(from: from, to: to, incarnation: incarnation)
        case .sessionLost(let kiosk, let peer, let session):
            try sessionLost(kiosks[kiosk], peer: peer, session: session)
        case .timer(let kiosk, let incarnation, let timer, let generation):
            let target = kiosks[kiosk]
            guard target.up, target.incarnation == incarnation, target.timers[timer] == generation else { return }
            target.timers[timer] = nil
            try feed(target, .timerFired(timer))
        case .storeDone(let kiosk, let incarnation, let job):
            let target = kiosks[kiosk]
            guard target.up, target.incarnation == incarnation, let work = target.jobs.removeValue(forKey: job) else {
                return
            }
            target.storeBusy = false
            try complete(work, at: target)
            startStore(target, at: now)
        case .crash(let kiosk): crash(kiosks[kiosk])
        case .restart(let kiosk): try restart(kiosks[kiosk])
        case .boot(let kiosk): try boot(kiosks[kiosk])
        case .partition(let side):
            partition(side)
            if options.organizerFork { try forkOrganizer(across: side) }
            if options.revoke { try revoke(across: side) }
        case .heal: heal()
        case .settle: try settle()
        }
    }
}
