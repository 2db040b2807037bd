import MusterTime
import Synchronization

/// When a peer was last heard from; shared by a connection's reader, its liveness watchdog and the
/// channel's ``LivenessHandler``. While the reader stores a batch (``busy(_:)``), silence does not count.
final class LastHeard: Sendable {
    private let time: any TimeSource
    /// When the peer was last heard (the time source's uptime), and how many stores of its data run.
    private let state: Mutex<(instant: Duration, busy: Int)>

    init(time: any TimeSource) {
        self.time = time
        state = Mutex((time.uptime, 0))
    }

    func now() {
        let now = time.uptime
        state.withLock { $0.instant = now }
    }
    var silence: Duration {
        let now = time.uptime
        return state.withLock { now - $0.instant }
    }
    var isBusy: Bool { state.withLock { $0.busy > 0 } }

    /// Marks the start or end of our own work on the peer's data; the end counts as hearing it.
    func busy(_ starting: Bool) {
        let now = time.uptime
        state.withLock {
            $0.busy += starting ? 1 : -1
            $0.instant = now
        }
    }
}
