public import MusterCore

/// How a batch of deltas becomes runs, one author's deltas each, for ``RunJudge``: the first thing
/// every store that ingests does (this replica, the simulator's memory store), so they count copies
/// and order runs alike.
public enum IngestBatch {
    /// A batch's runs (``runs(_:first:)``) and the report it starts from, which already
    /// counts as duplicates the byte-for-byte copies the runs left out.
    public static func plan(
        _ deltas: [SignedDelta],
        first: AuthorID?
    ) -> (runs: [[SignedDelta]], report: IngestReport) {
        let split = runs(deltas, first: first)
        var report = IngestReport()
        report.duplicates = deltas.count - split.reduce(0) { $0 + $1.count }
        return (split, report)
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
    public static func runs(_ deltas: [SignedDelta], first: AuthorID? = nil) -> [[SignedDelta]] {
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
