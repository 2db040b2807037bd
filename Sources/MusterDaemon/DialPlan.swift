import MusterCore
import MusterSync

/// Which discovered addresses this kiosk dials: the bookkeeping between mDNS announcements and the
/// sync layer's dial loops.
///
/// Anyone on the LAN can announce anything, so what discovery reports must cost a bounded amount:
/// - at most ``Limits/maxTargets`` addresses are tracked; beyond that a new one takes the place of
///   one that gave up (failed ``Limits/giveUpAfter`` times in a row), or is ignored;
/// - a dial loop ends when the last service naming its address disappears, or after
///   ``Limits/giveUpAfter`` failures in a row; an address that gave up rests for ``Limits/rest``
///   and is dialed again if it is still announced (a kiosk that was frozen or cut off comes back).
///
/// A pure state machine: ``DiscoveryService`` feeds it events and carries out its actions through
/// `SyncService.dial` and `stopDialing`.
struct DialPlan: Sendable {
    /// An announced address, as the sync layer dials it.
    typealias Target = HostPort

    enum Action: Equatable, Sendable {
        /// Start (or keep) a dial loop for the target, giving up after ``Limits/giveUpAfter`` failures.
        case dial(Target)
        /// End the target's dial loop before its next dial.
        case stop(Target)
    }

    struct Limits: Sendable {
        var maxTargets: Int
        var giveUpAfter: Int
        var rest: Duration

        /// 128 addresses: a full mesh up to well past the 50-kiosk venues measured, and a bounded
        /// number of sockets and tasks (at most one dial in flight per address) whatever is
        /// announced. 8 failures is about 23 s of backoff (250 ms doubling to 5 s).
        static let standard = Limits(maxTargets: 128, giveUpAfter: 8, rest: .seconds(60))
    }

    private enum State: Equatable {
        case dialing
        /// Gave up; dialed again at `until` if still announced.
        case resting(until: Duration)
    }

    private struct Entry {
        var services: Set<String>
        var state: State
    }

    let limits: Limits
    private var services: [String: Target] = [:]
    private var targets: [Target: Entry] = [:]
    /// Announcements ignored because ``Limits/maxTargets`` addresses were tracked and none had given up.
    private(set) var ignored = 0

    init(limits: Limits = .standard) { self.limits = limits }

    /// Addresses tracked (dialing or resting).
    var trackedCount: Int { targets.count }
    /// Addresses with a dial loop wanted now.
    var dialingCount: Int { targets.values.count { $0.state == .dialing } }

    /// A service was resolved to an address, or moved to a new one.
    mutating func appeared(service: String, at target: Target, now: Duration) -> [Action] {
        if services[service] == target { return [] }
        var actions = services[service].map { detach(service, from: $0) } ?? []
        if targets[target] != nil {
            targets[target]?.services.insert(service)
            services[service] = target
            return actions
        }
        if targets.count >= limits.maxTargets {
            guard let victim = oldestResting() else {
                ignored += 1
                return actions
            }
            for name in targets.removeValue(forKey: victim)?.services ?? [] { services[name] = nil }
        }
        targets[target] = Entry(services: [service], state: .dialing)
        services[service] = target
        actions.append(.dial(target))
        return actions
    }

    /// A service withdrew its announcement.
    mutating func disappeared(service: String) -> [Action] {
        guard let target = services[service] else { return [] }
        return detach(service, from: target)
    }

    /// The sync layer ended the target's dial loop.
    mutating func dialEnded(_ target: Target, _ why: DialEnd, now: Duration) -> [Action] {
        guard let entry = targets[target], entry.state == .dialing else { return [] }
        switch why {
        case .gaveUp:
            targets[target]?.state = .resting(until: now + limits.rest)
            return []
        case .stopped:
            // Stopped, yet announced again since: a new loop.
            return [.dial(target)]
        case .shutdown:
            return []
        }
    }

    /// Time passed: rested addresses still announced are dialed again.
    mutating func tick(now: Duration) -> [Action] {
        var actions: [Action] = []
        for (target, entry) in targets {
            guard case .resting(let until) = entry.state, until <= now else { continue }
            targets[target]?.state = .dialing
            actions.append(.dial(target))
        }
        return actions.sorted { $0.target.description < $1.target.description }
    }

    private mutating func detach(_ service: String, from target: Target) -> [Action] {
        services[service] = nil
        targets[target]?.services.remove(service)
        guard let entry = targets[target], entry.services.isEmpty else { return [] }
        targets[target] = nil
        return entry.state == .dialing ? [.stop(target)] : []
    }

    private func oldestResting() -> Target? {
        targets.compactMap { target, entry -> (Target, Duration)? in
            guard case .resting(let until) = entry.state else { return nil }
            return (target, until)
        }.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.description < $1.0.description }?.0
    }
}

extension DialPlan.Action {
    var target: DialPlan.Target {
        switch self {
        case .dial(let target), .stop(let target): target
        }
    }
}
