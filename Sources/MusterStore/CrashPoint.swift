#if MUSTER_FAULTS
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
public import MusterRules
#endif

/// A named step of a write where the fault campaign can kill the daemon (issue 7, "crash points").
///
/// The hook is compiled only into test (debug) builds, where the package defines `MUSTER_FAULTS`;
/// in a release build ``hit()`` is empty and the environment is never read. In a test build,
/// `MUSTER_CRASH_AT=POINT[:N]` makes the process kill itself with SIGKILL the N-th time (default
/// 1) it reaches POINT, so a test can check that a replica killed at exactly that step reopens
/// whole and that nothing acknowledged is missing.
public enum CrashPoint: String, Sendable, CaseIterable {
    /// Inside the write transaction of a received batch, before anything is stored.
    case ingestBegin = "ingest.begin"
    /// Inside the transaction, right after one received delta was stored and materialized.
    case ingestStored = "ingest.stored"
    /// Every delta of the batch stored; the transaction is about to commit.
    case ingestBeforeCommit = "ingest.before-commit"
    /// The batch committed; the daemon has not yet relayed it or answered the peer.
    case ingestCommitted = "ingest.committed"
    /// A local write decided what to append (inside the transaction).
    case localDecided = "local.decided"
    /// The local delta is signed, not yet stored.
    case localSigned = "local.signed"
    /// The local delta is stored and materialized; the transaction is about to commit.
    case localStored = "local.stored"
    /// The local write committed; the client has not been answered yet.
    case localCommitted = "local.committed"

    /// Whether crash points exist in this build.
    public static var isCompiledIn: Bool {
        #if MUSTER_FAULTS
        return true
        #else
        return false
        #endif
    }

    /// Kills the process here if `MUSTER_CRASH_AT` names this point and this is its N-th hit.
    @inline(__always)
    public func hit() {
        #if MUSTER_FAULTS
        CrashPlan.shared.hit(self)
        #endif
    }
}

#if MUSTER_FAULTS
/// What `MUSTER_CRASH_AT` asked for, read once.
private final class CrashPlan: Sendable {
    static let shared = CrashPlan()

    let point: CrashPoint?
    let count: Int
    let hits = Atomic<Int>(0)

    private init() {
        guard let raw = getenv("MUSTER_CRASH_AT").map({ String(cString: $0) }), !raw.isEmpty else {
            point = nil
            count = 0
            return
        }
        let parts = raw.split(separator: ":", maxSplits: 1).map(String.init)
        point = CrashPoint(rawValue: parts[0])
        count = parts.count > 1 ? max(1, Int(parts[1]) ?? 1) : 1
        if point == nil {
            let message = "MUSTER_CRASH_AT: unknown crash point '\(parts[0])'\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
        }
    }

    func hit(_ point: CrashPoint) {
        guard point == self.point else { return }
        let n = hits.add(1, ordering: .relaxed).newValue
        guard n == count else { return }
        let message = "CRASH POINT \(point.rawValue) (hit \(n)): SIGKILL\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        kill(getpid(), SIGKILL)
    }
}
#endif
