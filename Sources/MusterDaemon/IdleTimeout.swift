import MusterTime
import NIOCore
import Synchronization

/// Closes a control connection that has sent no whole request for ``ControlLimits/idleTimeout``, on
/// the injected clock: a process escaped from the screen must not hold connections, and the
/// descriptors behind them, by doing nothing. Staff connections have none (`muster watch` waits).
final class IdleTimeout: Sendable {
    private let time: any TimeSource
    private let timeout: Duration
    private let lastHeard: Mutex<Duration>
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    init(time: any TimeSource, channel: any Channel, timeout: Duration = ControlLimits.idleTimeout) {
        self.time = time
        self.timeout = timeout
        lastHeard = Mutex(time.uptime)
        let task = Task { await self.watch(channel) }
        watcher.withLock { $0 = task }
    }

    /// A whole request came in, or its answer went out: the connection is in use.
    func heard() {
        let now = time.uptime
        lastHeard.withLock { $0 = now }
    }

    /// The connection ended: stop watching it.
    func cancel() {
        watcher.withLock { $0?.cancel() }
    }

    private func watch(_ channel: any Channel) async {
        while !Task.isCancelled {
            let due = lastHeard.withLock { $0 } + timeout
            if time.uptime >= due {
                channel.close(promise: nil)
                return
            }
            try? await time.sleep(until: due)
        }
    }
}
