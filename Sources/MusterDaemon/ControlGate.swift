public import MusterControl
public import MusterTime
import Synchronization

/// The control socket's door: who the peer is (``ControlPeerRoles``), whether its connection is taken
/// (``ControlAdmission``), what that role may send (``ControlAccessPolicy``), and how fast a peer that
/// is not staff may look people up (``LookupThrottle``). The control server asks it when a connection
/// is accepted, and before and after every request.
public final class ControlGate: Sendable {
    public let roles: ControlPeerRoles
    let time: any TimeSource
    let throttle: Mutex<LookupThrottle>
    let admission: Mutex<ControlAdmission>

    public init(
        roles: ControlPeerRoles,
        throttle settings: LookupThrottle.Settings,
        time: any TimeSource,
        connections: ControlAdmission.Limits = .standard
    ) {
        self.roles = roles
        self.time = time
        self.throttle = Mutex(LookupThrottle(settings: settings))
        self.admission = Mutex(ControlAdmission(limits: connections))
    }

    /// Takes a just-accepted connection of `peer`, whose role is `role`, or says why not (and how many
    /// were refused so far, so the caller can log sparingly).
    func admit(
        _ peer: ControlPeer?,
        role: ControlPeerRole
    ) -> (Result<ControlAdmission.Slot, ControlAdmission.Refusal>, refusals: Int) {
        admission.withLock { admission in (admission.admit(uid: peer?.uid, role: role), admission.refusals) }
    }

    /// An admitted connection ended.
    func release(_ slot: ControlAdmission.Slot) {
        admission.withLock { $0.release(slot) }
    }

    /// Control connections open now.
    public var connections: Int { admission.withLock { $0.count } }

    /// The gate of a daemon started with `config`: the machine's users, the `[screen]` table's user
    /// and back-off, and the system clock.
    public static func system(config: KioskConfig, time: any TimeSource = SystemTime()) -> ControlGate {
        ControlGate(
            roles: .system(screenUser: config.screen.user),
            throttle: LookupThrottle.Settings(screen: config.screen),
            time: time
        )
    }

    /// A connection whose peer could not be identified is nobody's: ``ControlPeerRole/other``.
    public func role(of peer: ControlPeer?) -> ControlPeerRole {
        peer.map(roles.role(of:)) ?? .other
    }

    /// The answer for a request the peer may not send now, or nil when it may go ahead.
    public func refusal(for request: ControlRequest, role: ControlPeerRole) -> ControlResponse? {
        guard ControlAccessPolicy.allows(request, role: role) else {
            return .failure(.forbidden, ControlAccessPolicy.refusal(request, role: role))
        }
        guard Self.isThrottled(request, role: role) else { return nil }
        let now = time.uptime
        guard case .wait(let wait) = throttle.withLock({ $0.admit(at: now) }) else { return nil }
        let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
        var response = ControlResponse.failure(
            .rateLimited,
            "too many tickets or emails not found; please see staff (try again in \(seconds) s)"
        )
        response.retryAfterSeconds = seconds
        return response
    }

    /// Counts a not-found answer to a throttled request, and forgives one miss for each new check-in or
    /// walk-in registration by a peer that is not staff (see ``LookupThrottle/forgiveOne()``).
    public func answered(_ request: ControlRequest, with response: ControlResponse, role: ControlPeerRole) {
        guard role != .staff else { return }
        if response.outcome == .checkedIn || response.outcome == .registered {
            throttle.withLock { $0.forgiveOne() }
            return
        }
        guard Self.isThrottled(request, role: role), response.outcome == .notFound else { return }
        let now = time.uptime
        throttle.withLock { $0.recordMiss(at: now) }
    }

    /// Lookups by anyone but staff, and check-ins too: a check-in by ticket code answers "not found"
    /// just as a lookup does, so it would otherwise be the way around the brake.
    static func isThrottled(_ request: ControlRequest, role: ControlPeerRole) -> Bool {
        role != .staff && (request.op == .lookup || request.op == .checkIn)
    }
}
