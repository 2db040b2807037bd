import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// When the replica's write-ahead log is copied into the database: in the idle moment after the
/// commit that nearly filled it, rather than inside the commit that fills it.
///
/// SQLite's automatic checkpoint runs inside the commit that brings the WAL to its size: that
/// commit copies about a megabyte into the database file and fsyncs it as well, and the person whose
/// check-in it was waited for it (the local commit's p99 at a door's pace was the checkpoint's:
/// BENCHMARKS.md, local check-in commit). Here a commit that leaves ``earlyPages`` or more in the
/// WAL asks for a checkpoint once the writer has been idle ``idleDelay``: it runs on the writer's
/// queue, `PASSIVE` (it never waits for a reader), and when it copied everything it also starts the
/// WAL over with one page rewritten as it is, since the first write after a full checkpoint syncs
/// the WAL's new header as well as its commit. A door's commits, a second or more apart, then never
/// wait for either. Commits back to back (a peers' burst, a benchmark) leave no idle moment: the
/// one that fills the WAL checkpoints inside itself, exactly as before, so they pay nothing more.
///
/// The WAL's bound stays (RELIABILITY.md, finding 3): a commit that leaves ``backstopPages`` or
/// more checkpoints inside itself, as SQLite's automatic checkpoint does. Installing the hook
/// replaces SQLite's own automatic checkpoint (`sqlite3_wal_hook` is how `wal_autocheckpoint`
/// works). Checkpoints are about as frequent as before (every 240–256 pages instead of every 256),
/// so the SD card writes hardly more.
final class WALCheckpointer: Sendable {
    /// A commit that leaves this many pages in the WAL (960 KiB) queues a checkpoint after itself:
    /// close enough to the backstop that checkpoints are hardly more frequent than SQLite's own
    /// (each one fsyncs the database file), far enough that a check-in's few pages stay under it.
    static let earlyPages: Int32 = 240
    /// A commit that leaves this many (1 MiB, `journal_size_limit`) checkpoints inside itself.
    static let backstopPages: Int32 = 256

    /// How long the writer must have been idle after such a commit: far longer than the gap between
    /// commits back to back (a fifth of a millisecond), far shorter than between a door's.
    static let idleDelay: DispatchTimeInterval = .milliseconds(1)

    /// A checkpoint is asked for and has not finished: another commit asks for none.
    private let queued = Atomic<Bool>(false)
    /// Commits seen by the hook: a checkpoint asked for runs only if none came since.
    private let commits = Atomic<UInt64>(0)
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

    /// Removes the hook: SQLite's connection (if still open) no longer calls into this object, and
    /// a checkpoint asked for and not yet run does nothing.
    func remove(from pool: DatabasePool) {
        self.pool.withLock { $0.pool = nil }
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
        checkpointer.commits.add(1, ordering: .relaxed)
        if pages >= backstopPages {
            checkpointer.insideCommits.add(1, ordering: .relaxed)
            _ = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages >= earlyPages {
            checkpointer.queue()
        }
        return SQLITE_OK
    }

    /// Whether a checkpoint is asked for and not finished (tests wait for it as a door's idle
    /// second would).
    var isPending: Bool { queued.load(ordering: .acquiring) }

    /// Asks for one checkpoint once the writer has been idle ``idleDelay``, unless one is asked for
    /// already. A commit in between cancels it: the backstop, or the next idle moment, takes over.
    private func queue() {
        guard queued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        let seen = commits.load(ordering: .relaxed)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.idleDelay) { [self] in
            guard commits.load(ordering: .relaxed) == seen, let pool = pool.withLock({ $0.pool }) else {
                queued.store(false, ordering: .releasing)
                return
            }
            pool.asyncWriteWithoutTransaction { [self] db in
                defer { queued.store(false, ordering: .releasing) }
                // The replica may have been closed meanwhile (its close runs on this queue too).
                guard commits.load(ordering: .relaxed) == seen, db.sqliteConnection != nil,
                    self.pool.withLock({ $0.pool }) != nil
                else { return }
                afterCommits.add(1, ordering: .relaxed)
                guard let (log, copied) = try? db.checkpoint(.passive), log > 0, copied == log else { return }
                // Everything is copied, so the next write starts the WAL over, and with
                // `synchronous=FULL` that write syncs the WAL's new header as well as its commit:
                // two fsyncs for the check-in that happens to come next. One page rewritten as it
                // is takes that write here instead.
                try? db.execute(sql: "UPDATE meta SET value = value WHERE key = 'venue'")
            }
        }
    }
}
