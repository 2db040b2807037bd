import CMusterSQLite
import Foundation
import GRDB
import MusterCore
public import MusterRules
import Synchronization

/// The local SQLite replica: the signed delta log and the materialized state derived from it.
///
/// Opened read-write by `musterd` (the only writer) as a WAL `DatabasePool` with
/// `synchronous=FULL`, and read-only by `muster` for lookups. Every connection runs in SQLite's
/// defensive mode with `trusted_schema=OFF`, and every value is bound, never spliced into SQL.
public final class Replica: Sendable {
    public let path: String
    public let policy: VenuePolicy
    let reader: any DatabaseReader
    let pool: DatabasePool?
    /// The writer's per-delta statements (see ``HotStatements``).
    let hot = HotStatements()
    /// Writes a person waits for (see ``writeForPerson(_:)``) that wait for the writer: while one
    /// does, a group of peers' deltas commits at its next author run and lets it in.
    let personsWaiting = Atomic<Int>(0)
    /// Free bytes on the replica's file system (nil when unknown); see ``peerReserveBytes``.
    let freeBytes: @Sendable () -> UInt64?
    /// Checks a delta's own signature (``RunReader/signatureVerifies(_:)``); nil: Ed25519 each time.
    let signatures: (any SignatureChecking)?
    /// Checkpoints the writer's WAL after the commit that filled it (nil for a read-only replica).
    let checkpointer: WALCheckpointer?

    /// Below this much free space a batch of peers' deltas is not stored: what is left is kept for
    /// this kiosk's own writes, the check-ins a person waits for. A group of peers' deltas can add
    /// megabytes to the WAL, and when they took the last of a nearly full disk the checkpoint that
    /// empties the WAL had no room to grow the database file, so the kiosk could not write at all,
    /// even after space was freed (RELIABILITY.md, finding 3). The peers keep the deltas and send
    /// them again once there is room.
    public static let peerReserveBytes: UInt64 = 16 << 20

    private init(
        path: String,
        policy: VenuePolicy,
        reader: any DatabaseReader,
        pool: DatabasePool?,
        freeBytes: @escaping @Sendable () -> UInt64? = { nil },
        signatures: (any SignatureChecking)? = nil,
        checkpointer: WALCheckpointer? = nil
    ) {
        self.checkpointer = checkpointer
        self.freeBytes = freeBytes
        self.signatures = signatures
        self.path = path
        self.policy = policy
        self.reader = reader
        self.pool = pool
    }

    deinit {
        // Our prepared statements must be finalized before the pool closes its connection, and the
        // connection must stop calling the checkpointer before it goes.
        hot.drop()
        if let pool, let checkpointer { checkpointer.remove(from: pool) }
    }

    /// Opens (creating and migrating if needed) the replica for writing.
    /// - Parameter freeBytes: the free space on the replica's file system; by default `statvfs`
    ///   of its directory (tests pass their own).
    /// - Parameter signatures: how a delta's own signature is checked; by default Ed25519 every time.
    ///   The simulator's replicas share a cache of pairs that verified (``SignatureChecking``).
    public static func open(
        path: String,
        policy: VenuePolicy,
        freeBytes: (@Sendable () -> UInt64?)? = nil,
        signatures: (any SignatureChecking)? = nil
    ) throws(ReplicaError) -> Replica {
        try createPrivately(path)
        do {
            let pool = try DatabasePool(path: path, configuration: configuration(readOnly: false))
            // DatabasePool sets up WAL after `prepareDatabase` and leaves the writer at NORMAL, which can
            // lose the last commits on power loss. Acknowledged check-ins need FULL; the writer
            // connection lives as long as the pool, so setting it once here sticks.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            // The WAL is checkpointed once it holds 240 to 256 pages (1 MiB at most; SQLite's
            // default is 4 MiB), after the commit that filled it (``WALCheckpointer``), and cut back
            // to 1 MiB afterwards. Every commit appends whole pages to the WAL, so with less free
            // disk than the WAL's checkpoint size the WAL used to take all of it; a checkpoint then
            // needed the very space it held, and the kiosk could not write again even after space
            // was freed (RELIABILITY.md, finding 3).
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_size_limit = 1048576")
            }
            // Installed before the migrations, which can rebuild the materialized state; taken off
            // again if the replica is refused, since only a Replica keeps the checkpointer alive.
            let checkpointer = WALCheckpointer()
            checkpointer.install(on: pool)
            do {
                try ReplicaSchema.migrator.migrate(pool)
                try pool.write { db in try Replica.checkVenue(db, policy: policy) }
            } catch {
                checkpointer.remove(from: pool)
                throw error
            }
            let directory = (path as NSString).deletingLastPathComponent
            return Replica(
                path: path,
                policy: policy,
                reader: pool,
                pool: pool,
                freeBytes: freeBytes ?? { Replica.freeBytes(in: directory.isEmpty ? "." : directory) },
                signatures: signatures,
                checkpointer: checkpointer
            )
        } catch let error as ReplicaError {
            throw error
        } catch {
            throw ReplicaError(.open, "cannot open the replica at \(path): \(error)")
        }
    }

    /// Creates the replica file, empty and mode 0600, when there is none: SQLite gives its `-wal` and
    /// `-shm` the database's mode, so the attendee list stays the daemon user's alone under any umask
    /// (issue 32: under umask 022 all three were 0644). An existing file keeps its mode; the daemon
    /// refuses a loose one before it opens the replica (`StatePermissions`).
    static func createPrivately(_ path: String) throws(ReplicaError) {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(0o600))
        guard fd >= 0 else {
            let code = errno
            if code == EEXIST { return }
            throw ReplicaError(.open, "cannot create the replica at \(path): \(String(cString: strerror(code)))")
        }
        defer { Glibc.close(fd) }
        // The umask only removes bits; make the mode exact regardless.
        guard fchmod(fd, 0o600) == 0 else {
            throw ReplicaError(.open, "cannot set mode 0600 on \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Free bytes for an unprivileged writer on the file system holding `directory` (`statvfs`).
    public static func freeBytes(in directory: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }

    /// Opens an existing replica read-only (for `muster` lookups while `musterd` writes).
    public static func openReadOnly(path: String, policy: VenuePolicy) throws(ReplicaError) -> Replica {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ReplicaError(.open, "no replica at \(path); is musterd running with this config?")
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
            return Replica(path: path, policy: policy, reader: queue, pool: nil)
        } catch {
            throw ReplicaError(.open, "cannot open the replica at \(path) read-only: \(error)")
        }
    }

    /// SQLite's process-wide settings, made once before the process's first connection opens
    /// (``configuration(readOnly:)`` comes first on every open): memory statistics off
    /// (`muster_sqlite_configure_process`). Refused if something opened SQLite before, which leaves
    /// SQLite as it was: slower, not wrong.
    private static let processConfigured: Void = { _ = muster_sqlite_configure_process() }()

    /// Makes SQLite's process-wide settings now: for a program that opens a database of its own
    /// before any replica (the benchmark's raw limits are measured under the replica's settings).
    public static func configureSQLite() { processConfigured }

    /// How long a connection waits for another's lock before SQLITE_BUSY.
    static let busyTimeoutMillis = 5000

    static func configuration(readOnly: Bool) -> Configuration {
        _ = processConfigured
        var config = Configuration()
        config.readonly = readOnly
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(Double(busyTimeoutMillis) / 1000)
        config.label = "muster-replica"
        config.prepareDatabase { db in
            let rc = muster_sqlite_harden(UnsafeMutableRawPointer(db.sqliteConnection))
            guard rc == 0 else {
                throw ReplicaError(.sqlite, "cannot enable SQLite defensive mode (code \(rc))")
            }
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
        }
        return config
    }

    /// A replica belongs to one venue; opening it with another venue's files is refused rather
    /// than mixing two venues' data.
    static func checkVenue(_ db: Database, policy: VenuePolicy) throws {
        let stored = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'venue'")
        if let stored {
            guard stored == policy.venue.hex else {
                throw ReplicaError(.open, "this replica belongs to venue \(stored), not \(policy.venue.hex)")
            }
        } else {
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('venue', ?)", arguments: [policy.venue.hex])
        }
        // The replica's epoch: made once when the replica is created, so peers recognize a kiosk
        // whose replica was wiped and recreated.
        try db.execute(
            sql: "INSERT OR IGNORE INTO meta(key, value) VALUES ('epoch', ?)",
            arguments: [Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255) })]
        )
    }

    /// Closes the database connections (before the files are deleted, e.g. by a revoked kiosk).
    public func close() throws(ReplicaError) {
        do {
            if let pool {
                checkpointer?.remove(from: pool)
                pool.writeWithoutTransaction { _ in hot.drop() }
                try pool.close()
            } else if let queue = reader as? DatabaseQueue {
                try queue.close()
            }
        } catch {
            throw Replica.mapError(error)
        }
    }

    /// The replica's epoch (see ``checkVenue(_:policy:)``).
    public func epoch() throws(ReplicaError) -> String {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") ?? "" }
    }

    func writer() throws(ReplicaError) -> DatabasePool {
        guard let pool else { throw ReplicaError(.sqlite, "the replica is open read-only") }
        return pool
    }

    /// Runs a write a person waits for: a check-in at the door, an organizer's submission.
    ///
    /// SQLite has one writer, and the writer's queue is first come, first served. A kiosk that is
    /// behind stores its peers' deltas in large groups, because a run of one author's deltas costs
    /// a quarter of what the same deltas cost one by one (BENCHMARKS.md, "Store and lookups",
    /// interleaved ingest); but a check-in queued behind such a group waited for all of it, and the
    /// doors slowed to half their pace. So a write queued here is counted until the writer takes it, and
    /// ``ingest(_:nowMillis:clockBoundMillis:atomic:durable:)`` commits at the next author run
    /// while the count is not zero, then queues for the rest behind it: the check-in waits for at
    /// most one run.
    func writeForPerson<T>(_ body: (Database) throws -> T) throws -> T {
        let pool = try writer()
        personsWaiting.add(1, ordering: .relaxed)
        var counted = true
        defer { if counted { personsWaiting.subtract(1, ordering: .relaxed) } }
        return try pool.writeWithoutTransaction { db in
            personsWaiting.subtract(1, ordering: .relaxed)
            counted = false
            return try body(db)
        }
    }

    /// One transaction around `body`, with its result (GRDB's `inTransaction` returns none).
    static func transaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        var result: T?
        try db.inTransaction {
            result = try body()
            return .commit
        }
        return result!
    }

    /// Runs a read, mapping SQLite failures to ``ReplicaError``.
    func read<T>(_ body: (Database) throws -> T) throws(ReplicaError) -> T {
        do {
            return try reader.read(body)
        } catch {
            throw Replica.mapError(error)
        }
    }

    static func mapError(_ error: any Error) -> ReplicaError {
        if let error = error as? ReplicaError { return error }
        if let rejection = error as? DeltaRejection { return ReplicaError(rejection) }
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_FULL {
                return ReplicaError(.diskFull, "the disk is full; nothing was written")
            }
            return ReplicaError(.sqlite, "SQLite error \(error.resultCode): \(error.message ?? "unknown")")
        }
        return ReplicaError(.sqlite, "\(error)", underlying: error)
    }
}
