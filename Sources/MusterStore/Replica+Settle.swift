import GRDB

extension Replica {
    /// Gives back what a busy moment left behind, once the replica has been quiet: the write-ahead
    /// log cut to nothing and the connections' page caches freed.
    ///
    /// One transaction larger than the checkpoint size (an import of 50,000 attendees is one) grows
    /// the WAL to its own size, 42 MiB in the footprint run, and `journal_size_limit` cuts it back only
    /// when the next write starts over at its beginning: a kiosk that then sat idle kept the whole
    /// log on its SD card, a third of its replica's bytes (BENCHMARKS.md, footprint). The automatic
    /// checkpoint after that commit has already copied the pages, so the `TRUNCATE` checkpoint here
    /// is a truncation and an fsync. It does not wait: if a reader still holds an older snapshot it
    /// gives up at once (busy timeout 0 for this one statement), so a check-in arriving meanwhile is
    /// never held up behind an export, and the next quiet moment tries again.
    ///
    /// The reader connections are closed and reopened on demand (GRDB's `releaseMemory`), so their
    /// page caches, each up to SQLite's default 2 MiB, do not stay resident while nothing reads.
    public func settle() {
        guard let pool else { return }
        pool.releaseMemory()
        _ = try? pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Self.busyTimeoutMillis)") }
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
