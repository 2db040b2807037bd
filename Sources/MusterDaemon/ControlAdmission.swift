/// Which control connections the daemon takes, decided when one is accepted: none from a peer
/// that is neither staff nor the screen, at most ``Limits/perPeer`` at once from one user that is
/// not staff, and at most ``Limits/total`` at once from anyone.
///
/// Each open connection holds a descriptor, buffers and a task; the screen's user is the one peer
/// the public can reach (a process escaped from the screen), so what it can open is capped below
/// the daemon's descriptor budget, and staff can always get in. A pure value: ``ControlGate`` keeps
/// it under a lock and the server closes what it refuses.
public struct ControlAdmission: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Connections at once, from anyone.
        public var total: Int
        /// Connections at once from one user that is not staff.
        public var perPeer: Int

        public init(total: Int, perPeer: Int) {
            self.total = total
            self.perPeer = perPeer
        }

        public static let standard = Limits(total: ControlLimits.connections, perPeer: ControlLimits.connectionsPerPeer)
    }

    /// An admitted connection's place, given back when it ends.
    public struct Slot: Sendable, Equatable {
        /// The user whose share it counts against; nil for staff, who count only in the total.
        let uid: UInt32?
    }

    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Neither staff nor the screen (``ControlPeerRole/other``): nothing to ask.
        case stranger
        /// This user already holds its share.
        case peerFull(limit: Int)
        /// The daemon holds as many control connections as it takes.
        case full(limit: Int)

        public var description: String {
            switch self {
            case .stranger: "this user may not use musterd's control socket"
            case .peerFull(let limit): "\(limit) control connections from this user already"
            case .full(let limit): "\(limit) control connections already"
            }
        }
    }

    public let limits: Limits
    private var total = 0
    private var perPeer: [UInt32: Int] = [:]
    /// Connections refused so far (the server logs the 1st, 2nd, 4th, 8th… so a flood cannot fill the journal).
    public private(set) var refusals = 0

    public init(limits: Limits = .standard) {
        precondition(limits.total > 0 && limits.perPeer > 0, "control admission limits must be positive")
        self.limits = limits
    }

    /// Connections open now.
    public var count: Int { total }

    /// A connection from `uid` (nil when the kernel could not say) of `role` was accepted.
    public mutating func admit(uid: UInt32?, role: ControlPeerRole) -> Result<Slot, Refusal> {
        let decision = decide(uid: uid, role: role)
        switch decision {
        case .success(let slot):
            total += 1
            if let uid = slot.uid { perPeer[uid, default: 0] += 1 }
        case .failure:
            refusals += 1
        }
        return decision
    }

    /// An admitted connection ended.
    public mutating func release(_ slot: Slot) {
        total -= 1
        guard let uid = slot.uid else { return }
        let left = perPeer[uid, default: 1] - 1
        perPeer[uid] = left > 0 ? left : nil
    }

    private func decide(uid: UInt32?, role: ControlPeerRole) -> Result<Slot, Refusal> {
        switch role {
        case .other:
            return .failure(.stranger)
        case .staff:
            return total < limits.total ? .success(Slot(uid: nil)) : .failure(.full(limit: limits.total))
        case .screen:
            // A screen peer always has a uid (its role comes from it).
            let uid = uid ?? .max
            guard perPeer[uid, default: 0] < limits.perPeer else { return .failure(.peerFull(limit: limits.perPeer)) }
            return total < limits.total ? .success(Slot(uid: uid)) : .failure(.full(limit: limits.total))
        }
    }
}
