import GRDB
import GRDBSQLite
import Synchronization

/// When the replica's write-ahead log is copied into the database: right after the commit that
/// filled it, on the writer's queue, rather than inside that commit.
///
/// SQLite's automatic checkpoint runs inside the commit that brings the WAL to its size: that
/// commit copies about a megabyte into the database file and fsyncs it as well, and the person whose
/// check-in it was waited for it (the local commit's p99 was the checkpoint's, every few dozen
/// check-ins: BENCHMARKS.md, local check-in commit). Here a commit that leaves ``earlyPages`` or
/// more in the WAL queues a `PASSIVE` checkpoint on the writer's queue: it runs once that commit has
/// returned and before any write asked for later, while the door shows its answer. Commits back to
/// back therefore pay the same checkpoints as before, one commit later; a door's commits, seconds
/// apart, never wait for one. The checkpoints are about as frequent as before (every 240–256 pages
/// instead of every 256), so the SD card writes hardly more.
///
/// The WAL's bound stays (RELIABILITY.md, finding 3): a commit that leaves ``backstopPages`` or
/// more checkpoints inside itself, as SQLite's automatic checkpoint does, which only happens when
/// one write is large (a peer's batch, an import) or writes come faster than the queued checkpoint
/// runs. A queued checkpoint that copied everything also starts the WAL over, with one page
/// rewritten as it is, since the first write after a full checkpoint syncs the WAL's new header as
/// well as its commit. Installing the hook replaces SQLite's own
/// automatic checkpoint (`sqlite3_wal_hook` is how `wal_autocheckpoint` works).
final class WALCheckpointer: Sendable {
    /// A commit that leaves this many pages in the WAL (960 KiB) queues a checkpoint after itself:
    /// close enough to the backstop that checkpoints are hardly more frequent than SQLite's own
    /// (each one fsyncs the database file), far enough that a check-in's few pages stay under it.
    static let earlyPages: Int32 = 240
    /// A commit that leaves this many (1 MiB, `journal_size_limit`) checkpoints inside itself.
    static let backstopPages: Int32 = 256

    /// A checkpoint is queued and has not started: another commit queues none.
    private let queued = Atomic<Bool>(false)
    /// Checkpoints run inside a commit (the backstop) and after one (queued), since the replica
    /// opened: what `WALCheckpointerTests` reads.
    let insideCommits = Atomic<Int>(0)
    let afterCommits = Atomic<Int>(0)
    /// The pool whose writer runs the queued checkpoints; weak, since the pool's writer holds the
    /// hook that holds this.
    private let pool = Mutex<WeakPool>(WeakPool())

    private struct WeakPool: @unchecked Sendable {
        weak var pool: DatabasePool?
    }

    /// Installs the hook on `pool`'s writer connection. The checkpointer must outlive the
    /// connection or be removed first (``remove(from:)``).
    func install(on pool: DatabasePool) {
        self.pool.withLock { $0.pool = pool }
        let context = Unmanaged.passUnretained(self).toOpaque()
        pool.writeWithoutTransaction { db in
            guard let connection = db.sqliteConnection else { return }
            _ = sqlite3_wal_hook(connection, WALCheckpointer.hook, context)
        }
    }

    /// Removes the hook: SQLite's connection (if still open) no longer calls into this object.
    func remove(from pool: DatabasePool) {
        pool.writeWithoutTransaction { db in
            guard let connection = db.sqliteConnection else { return }
            _ = sqlite3_wal_hook(connection, nil, nil)
        }
    }

    /// `sqlite3_wal_hook`'s callback: (context, connection, database name, pages in the WAL).
    private typealias Hook =
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32
        ) -> Int32

    /// Called by SQLite on the writer after every commit, with the pages now in the WAL.
    private static let hook: Hook = { context, db, name, pages in
        guard let context else { return SQLITE_OK }
        let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
        if pages >= backstopPages {
            checkpointer.insideCommits.add(1, ordering: .relaxed)
            _ = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages >= earlyPages {
            checkpointer.queue()
        }
        return SQLITE_OK
    }

    /// Queues one `PASSIVE` checkpoint on the writer's queue, unless one is queued already. It never
    /// waits for a reader: what a reader's snapshot still needs is copied by a later one.
    private func queue() {
        guard let pool = pool.withLock({ $0.pool }) else { return }
        guard queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        pool.asyncWriteWithoutTransaction { [self] db in
            queued.store(false, ordering: .releasing)
            afterCommits.add(1, ordering: .relaxed)
            guard let (log, copied) = try? db.checkpoint(.passive), log > 0, copied == log else { return }
            // Everything is copied, so the next write starts the WAL over, and with
            // `synchronous=FULL` that write syncs the WAL's new header as well as its commit: two
            // fsyncs for the check-in that happens to come next. One page rewritten as it is takes
            // that write here instead.
            try? db.execute(sql: "UPDATE meta SET value = value WHERE key = 'venue'")
        }
    }
}
