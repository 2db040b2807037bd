/// Sizes of one run: full (the figures) or `--quick` (a smoke run for `make test`).
struct BenchOptions {
    let quick: Bool
    /// Deltas ingested by the catch-up figure.
    let catchUpDeltas: Int
    /// Check-ins ingested one per author per run by the interleaved-ingest figure.
    let interleavedDeltas: Int
    /// Attendees imported for the lookup figure.
    let attendees: Int
    /// Lookups timed per query kind.
    let lookups: Int
    /// Local check-ins and raw fsyncs timed.
    let commits: Int
    /// Signatures verified and rows inserted for the raw limits.
    let verifies: Int
    let inserts: Int
    /// Deltas per ingest call, as the sync layer pages them.
    static let batchSize = 500
    /// Kiosk authors in the catch-up log.
    let kiosks = 8
    let resultsPath = ".bench/results.json"
    /// Which parts run: the in-process figures and the lab figures (`--lab-only`, `--no-lab`).
    let inProcess: Bool
    let lab: Bool
    /// `--only=propagation,discovery,burst` (any of them): some lab parts (for profiling and before/after runs);
    /// `--only=ingest`: the raw verify limit and the interleaved-ingest figure (for profiling);
    /// `--only=badge`: the badge render + submit figure; with `MUSTER_BENCH_CUPS_QUEUE`, also the kiosk
    /// screen's check-in latency without and with a printer (`scripts/private-printer` makes one).
    let only: String?
    let sizes: LabSizes
    /// `--count=catch-up|interleaved|local-commit --n=N`: only that workload of `N`, untimed, for the
    /// instruction-count guard (``CountedWorkload``); no table, no results file.
    let count: CountedWorkload?
    let countSize: Int
    /// `--keep=DIR`: the counted workload's replica is made in DIR and kept (to measure it: BENCHMARKS.md,
    /// "What the replica holds").
    let keep: String?

    init(arguments: [String]) throws(BenchError) {
        var quick = false
        var inProcess = true
        var lab = true
        var only: String?
        var count: CountedWorkload?
        var countSize = 1_000
        var keep: String?
        for argument in arguments {
            if argument.hasPrefix("--keep=") {
                keep = String(argument.dropFirst("--keep=".count))
                continue
            }
            if argument.hasPrefix("--only=") {
                only = String(argument.dropFirst("--only=".count))
                inProcess = false
                continue
            }
            if argument.hasPrefix("--count=") {
                let name = String(argument.dropFirst("--count=".count))
                guard let workload = CountedWorkload(rawValue: name) else {
                    let names = CountedWorkload.allCases.map(\.rawValue).joined(separator: "|")
                    throw BenchError(.setup, "unknown workload '\(name)' for --count; one of \(names)")
                }
                count = workload
                continue
            }
            if argument.hasPrefix("--n=") {
                guard let size = Int(argument.dropFirst("--n=".count)), size > 0 else {
                    throw BenchError(.setup, "--n takes a positive number of deltas, not '\(argument)'")
                }
                countSize = size
                continue
            }
            switch argument {
            case "--quick": quick = true
            case "--lab-only": inProcess = false
            case "--no-lab": lab = false
            case "--help", "-h":
                throw BenchError(
                    .setup,
                    "usage: muster-bench [--quick] [--lab-only | --no-lab | --only=propagation|discovery|burst|capacity|badge|ingest]  (writes .bench/results.json)\n"
                        + "       muster-bench --count=catch-up|interleaved|local-commit --n=N [--keep=DIR]  (the work alone, for scripts/instruction-guard)"
                )
            default:
                throw BenchError(
                    .setup,
                    "unknown argument '\(argument)'; usage: muster-bench [--quick] [--lab-only | --no-lab | --only=propagation|discovery|burst|capacity|badge|ingest]"
                )
            }
        }
        self.quick = quick
        self.inProcess = inProcess
        self.lab = lab
        self.only = only
        self.count = count
        self.countSize = countSize
        self.keep = keep
        sizes = quick ? .quick : .full
        catchUpDeltas = quick ? 2_000 : 100_000
        interleavedDeltas = quick ? 1_000 : 10_000
        attendees = quick ? 2_000 : 100_000
        lookups = quick ? 500 : 10_000
        commits = quick ? 50 : 1_000
        verifies = quick ? 2_000 : 20_000
        inserts = quick ? 2_000 : 100_000
    }
}
