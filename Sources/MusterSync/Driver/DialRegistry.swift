import MusterCore
import Synchronization

/// The dial loops running, one per address, each with its ``DialSchedule``: shared by the loops
/// and by whoever asks for dials or for them to stop (discovery), from any task.
final class DialRegistry: Sendable {
    private struct Entry {
        var schedule: DialSchedule
        var onEnd: (@Sendable (DialEnd) -> Void)?
        /// Asked for while it was not pausing: its next pause ends at once.
        var woken = false
        /// The loop's pause, when it is in one (see ``pause(_:for:sleep:)``).
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let entries = Mutex<[HostPort: Entry]>([:])

    /// Registers a loop for `address`. Returns true when the caller must start it; false when one
    /// runs already (then it is wanted again: a pending stop is withdrawn, and its pause ends).
    func begin(_ address: HostPort, maxFailures: Int?, onEnd: (@Sendable (DialEnd) -> Void)?) -> Bool {
        let (start, waiter) = entries.withLock { entries -> (Bool, CheckedContinuation<Void, Never>?) in
            if entries[address] != nil {
                entries[address]?.schedule.resume()
                return (false, Self.wake(&entries, address))
            }
            entries[address] = Entry(schedule: DialSchedule(maxFailures: maxFailures), onEnd: onEnd)
            return (true, nil)
        }
        waiter?.resume()
        return start
    }

    /// Ends the pause of `address`'s loop now (its session ended, or the core wants one): it looks
    /// again at once instead of after ``DialSchedule/connectedRecheck``.
    func wake(_ address: HostPort) {
        entries.withLock { Self.wake(&$0, address) }?.resume()
    }

    private static func wake(
        _ entries: inout [HostPort: Entry],
        _ address: HostPort
    ) -> CheckedContinuation<Void, Never>? {
        guard entries[address] != nil else { return nil }
        guard let waiter = entries[address]?.waiter else {
            entries[address]?.woken = true
            return nil
        }
        entries[address]?.waiter = nil
        return waiter
    }

    /// The loop for `address` waits `delay` (with `sleep`), or less if woken meanwhile
    /// (``wake(_:)``). A loop that only rechecks a connected or unwanted address thus sleeps long
    /// and still redials at once when needed: 49 loops each waking twice a second were half of an
    /// idle 50-kiosk lab's musterd CPU (0.50 → 0.23 cores). A wake that comes while the loop is not
    /// pausing ends its next pause only, so a loop woken as its own session ends redials once at
    /// most without its backoff.
    func pause(_ address: HostPort, for delay: Duration, sleep: @escaping @Sendable (Duration) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await sleep(delay) }
            group.addTask { await self.woken(address) }
            await group.next()
            group.cancelAll()
        }
    }

    private func woken(_ address: HostPort) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = entries.withLock { entries -> Bool in
                    guard entries[address] != nil, entries[address]?.woken == false, !Task.isCancelled else {
                        entries[address]?.woken = false
                        return true
                    }
                    entries[address]?.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            entries.withLock { entries -> CheckedContinuation<Void, Never>? in
                defer { entries[address]?.waiter = nil }
                return entries[address]?.waiter
            }?.resume()
        }
    }

    /// The loop for `address` ends before its next dial.
    func stop(_ address: HostPort) {
        entries.withLock { $0[address]?.schedule.stop() }
    }

    func shouldDial(_ address: HostPort) -> Bool {
        entries.withLock { $0[address]?.schedule.shouldDial ?? false }
    }

    /// An attempt ended: the schedule's next action. When it is `.end`, the loop is unregistered
    /// and its owner told.
    func attempted(_ address: HostPort, _ outcome: DialSchedule.Outcome) -> DialSchedule.Action {
        let (action, onEnd) = entries.withLock { entries -> (DialSchedule.Action, (@Sendable (DialEnd) -> Void)?) in
            guard var entry = entries[address] else { return (.end(.stopped), nil) }
            let action = entry.schedule.attempted(outcome)
            if case .end = action {
                entries[address] = nil
                return (action, entry.onEnd)
            }
            entries[address] = entry
            return (action, nil)
        }
        if case .end(let why) = action { onEnd?(why) }
        return action
    }

    /// The loop ended for another reason (shutdown, or stopped before dialing).
    func ended(_ address: HostPort, _ why: DialEnd) {
        let entry = entries.withLock { $0.removeValue(forKey: address) }
        entry?.waiter?.resume()
        entry?.onEnd?(why)
    }

    /// Whether `address`'s loop is in a pause now.
    func isPausing(_ address: HostPort) -> Bool {
        entries.withLock { $0[address]?.waiter != nil }
    }

    /// Loops registered now.
    var count: Int { entries.withLock { $0.count } }
}
