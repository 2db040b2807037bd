import Synchronization

/// The dial loops running, one per address, each with its ``DialSchedule``: shared by the loops
/// and by whoever asks for dials or for them to stop (discovery), from any task.
final class DialRegistry: Sendable {
    private struct Entry {
        var schedule: DialSchedule
        var onEnd: (@Sendable (DialEnd) -> Void)?
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Registers a loop for `address`. Returns true when the caller must start it; false when one
    /// runs already (then it is wanted again: a pending stop is withdrawn).
    func begin(_ address: String, maxFailures: Int?, onEnd: (@Sendable (DialEnd) -> Void)?) -> Bool {
        entries.withLock { entries in
            if entries[address] != nil {
                entries[address]?.schedule.resume()
                return false
            }
            entries[address] = Entry(schedule: DialSchedule(maxFailures: maxFailures), onEnd: onEnd)
            return true
        }
    }

    /// The loop for `address` ends before its next dial.
    func stop(_ address: String) {
        entries.withLock { $0[address]?.schedule.stop() }
    }

    func shouldDial(_ address: String) -> Bool {
        entries.withLock { $0[address]?.schedule.shouldDial ?? false }
    }

    /// An attempt ended: the schedule's next action. When it is `.end`, the loop is unregistered
    /// and its owner told.
    func attempted(_ address: String, _ outcome: DialSchedule.Outcome) -> DialSchedule.Action {
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
    func ended(_ address: String, _ why: DialEnd) {
        let onEnd = entries.withLock { $0.removeValue(forKey: address)?.onEnd }
        onEnd?(why)
    }

    /// Loops registered now.
    var count: Int { entries.withLock { $0.count } }
}
