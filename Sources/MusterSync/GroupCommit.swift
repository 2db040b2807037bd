/// Which waiting batches of peers' deltas the next group commit takes: the daemon's driver and the
/// simulator's store model cut groups by this one rule.
public enum GroupCommit {
    /// How many of `waiting` (oldest first) the next group takes: as many as fit in `limit` deltas,
    /// and at least one (a batch larger than the limit is a group of its own).
    public static func size<Batch>(
        of waiting: some Collection<Batch>,
        limit: Int = SyncLimits.groupCommitDeltas,
        deltas: (Batch) -> Int
    ) -> Int {
        var taken = 0
        var count = 0
        for batch in waiting {
            let size = deltas(batch)
            guard taken == 0 || count + size <= limit else { break }
            taken += 1
            count += size
        }
        return taken
    }
}
