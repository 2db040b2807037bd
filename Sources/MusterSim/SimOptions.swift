import MusterCore

/// Everything that defines one simulated run; with the seed, it determines the run exactly.
public struct SimOptions: Sendable, Equatable {
    /// Which store kiosks keep their deltas in (see ``KioskStore``).
    public enum StoreKind: String, Sendable, CaseIterable {
        /// The real `Replica` on SQLite, one file per kiosk in a temporary directory.
        case sqlite
        /// ``MemoryStore``: the replica's own judgement of every run, carried out in memory, for runs
        /// above a few hundred kiosks.
        case memory
    }

    public var kiosks: Int
    public var checkIns: Int
    public var seed: UInt64
    /// Check-ins per second across the venue (they arrive at random times over `checkIns / rate` s).
    public var rate: Double = 500
    public var store: StoreKind = .sqlite
    public var faults = FaultOptions()
    /// Give up when the venue has not converged this long after the last fault healed.
    public var patience: Duration = .seconds(120)
    /// The core's full-mesh threshold (nil: the core's default). Lowering it runs a small venue as a
    /// HyParView/Plumtree overlay, to compare the two at the same size.
    public var fullMeshThreshold: Int?
    /// Why `threshold` cannot be the full-mesh threshold (the sync layer's bound, ``FullMesh``), or nil.
    public static func fullMeshProblem(_ threshold: Int) -> String? { FullMesh.problem(with: threshold) }
    /// How many kiosks lie (``Liar``): enrolled insiders that fork their chain, stamp far-future
    /// timestamps and rewrite what is not theirs, through the real protocol. 0 runs an honest venue.
    /// Needs the real replica (`sqlite`): the checker reads what the lies did to attendees and
    /// presences from its materialized state, which ``MemoryStore`` does not keep.
    public var byzantine = 0
    /// The organizer key signs on two machines, one on each side of the partition, when it starts:
    /// one honest kiosk on each side takes two locks signed on the organizer's head (as `muster lock`
    /// through its control socket would submit them), and every replica must end on the branch
    /// `OrganizerVersion.beats(_:_:)` keeps. Needs the partition fault; runs as a Byzantine run
    /// (settled by digests), with or without liars, on either store.
    public var organizerFork = false
    /// When the partition starts, an honest kiosk on one side takes the organizer's revocation of a
    /// kiosk on the other (a stolen kiosk that goes on checking people in, cut off), with the
    /// watermark it holds and the venue's next network key sealed to every other kiosk. Every
    /// replica must set aside what the kiosk signed past the watermark and keep everything before
    /// it; the revoked kiosk stops once it hears of it, and no kiosk admits it again. Needs the
    /// partition fault; runs as a Byzantine run (settled by digests), on either store.
    public var revoke = false
    /// Doors with rules: the organizer imports the workload's attendees and locks with `--entries
    /// once`, every check-in is judged at its door as musterd judges it (``MusterStore/ReplicaView``'s
    /// `judgeScan`, recording a check-in or a refused scan), and every attendee comes to two doors at
    /// random times. A door that holds an attendee's entry must refuse the second; every double the
    /// faults let through must appear, alike, in every kiosk's conflicts report (issue 37). Needs the
    /// real replica (`sqlite`); not with liars, an organizer fork or a revocation.
    public var doors = false
    /// Every kiosk's processing and storing take this many times longer: a venue whose kiosks share
    /// a few cores, as the lab's 50 kiosks share this machine's 2 (a busy kiosk's inputs queue up
    /// behind each other, which is when eager pushes arrive after the graft timeout).
    public var cpuScale = 1
    /// Kiosks come up this far apart, in index order (keys are random, so the order of their keys is
    /// too), and the doors open 1 s after the last: a venue switched on one kiosk after another, the
    /// way the lab split its overlay in two (RELIABILITY.md, finding 14). Zero starts every kiosk at
    /// once.
    public var stagger: Duration = .zero

    public init(kiosks: Int, checkIns: Int, seed: UInt64) {
        self.kiosks = kiosks
        self.checkIns = checkIns
        self.seed = seed
    }

    /// The stand-in store above a few hundred kiosks, the real replica below (see RELIABILITY.md,
    /// "How the simulator models a venue").
    public static func defaultStore(kiosks: Int) -> StoreKind { kiosks > 300 ? .memory : .sqlite }
}

/// The faults of a run, each off by default and each with its own flag in `muster-sim`.
///
/// The network is harsher than TCP on purpose: a frame inside a session can be lost, duplicated or
/// overtaken by a later one, so every repair path of the protocol (anti-entropy, gap handling,
/// duplicate ingest) is exercised; a real session would rather stall or break.
public struct FaultOptions: Sendable, Equatable {
    /// Probability that a frame is lost.
    public var loss: Double = 0
    /// Probability that a frame is delivered twice.
    public var duplication: Double = 0
    /// Probability that a frame is delayed by up to ``reorderDelay`` past the frames after it.
    public var reordering: Double = 0
    public var reorderDelay: Duration = .milliseconds(5)
    /// Split the kiosks in two during the burst; heal after 5–15 s.
    public var partition = false
    /// Crash-restart 10 % of the kiosks (at least one) during the burst: unacknowledged work and
    /// the sync state are lost, the replica kept; back after 1–5 s.
    public var crash = false
    /// 10 % of the kiosks (at least one) process and store 8 times slower and sit 2 ms further away.
    public var slow = false
    /// Every kiosk's wall clock is off by up to ±60 s and its monotonic clock runs up to ±0.2 % fast or slow.
    public var skew = false

    public init() {}

    /// Every fault on: the sweep's setting (1 % loss, 1 % duplication, 5 % reordering).
    public static var all: FaultOptions {
        var faults = FaultOptions()
        faults.loss = 0.01
        faults.duplication = 0.01
        faults.reordering = 0.05
        faults.partition = true
        faults.crash = true
        faults.slow = true
        faults.skew = true
        return faults
    }

    /// The names of the faults that are on, for summaries.
    public var names: [String] {
        var names: [String] = []
        if loss > 0 { names.append("loss=\(loss)") }
        if duplication > 0 { names.append("dup=\(duplication)") }
        if reordering > 0 { names.append("reorder=\(reordering)") }
        if partition { names.append("partition") }
        if crash { names.append("crash") }
        if slow { names.append("slow") }
        if skew { names.append("skew") }
        return names
    }
}
