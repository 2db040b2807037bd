public import MusterControl
public import MusterTime
import Synchronization

/// The control socket's door: who the peer is (``ControlPeerRoles``), whether its connection is taken
/// (``ControlAdmission``), what that role may send (``ControlAccessPolicy``), how fast a peer that is
/// not staff may look people up (``LookupThrottle``), and whom the screen may write a note about
/// (``ScreenBinding``). The control server asks it when a connection is accepted, and before and after
/// every request.
public final class ControlGate: Sendable {
    public let roles: ControlPeerRoles
    let time: any TimeSource
    let throttle: Mutex<LookupThrottle>
    /// The attendee the screen's user has just checked in, the only one it may add a note to.
    let binding: Mutex<ScreenBinding>
    let admission: Mutex<ControlAdmission>
    /// How the screen's answers name attendees, for this run (``ScreenHandles``).
    public let handles: ScreenHandles

    /// - Parameter noteWindow: how long after its check-in the screen may add a note (``ScreenBinding``).
    public init(
        roles: ControlPeerRoles,
        throttle settings: LookupThrottle.Settings,
        noteWindow: Duration = .seconds(60),
        time: any TimeSource,
        connections: ControlAdmission.Limits = .standard,
        handles: ScreenHandles = .random()
    ) {
        self.roles = roles
        self.handles = handles
        self.time = time
        self.throttle = Mutex(LookupThrottle(settings: settings))
        self.binding = Mutex(ScreenBinding(window: noteWindow))
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
            noteWindow: config.screen.idleTimeout * 2,
            time: time
        )
    }

    /// A connection whose peer could not be identified is nobody's: ``ControlPeerRole/other``.
    public func role(of peer: ControlPeer?) -> ControlPeerRole {
        peer.map(roles.role(of:)) ?? .other
    }

    /// The screen's request with the attendee it names by handle turned back into that attendee's key: the
    /// key of the attendee bound to the screen when the handle is theirs. Any other handle stays as it is,
    /// names nobody, and is refused by the binding. Staff's requests name attendees by key already.
    public func resolve(_ request: ControlRequest, role: ControlPeerRole) -> ControlRequest {
        guard role == .screen else { return request }
        return binding.withLock { $0.resolve(request, handles: handles) }
    }

    /// The answer for a request the peer may not send now, or nil when it may go ahead.
    public func refusal(for request: ControlRequest, role: ControlPeerRole) -> ControlResponse? {
        guard ControlAccessPolicy.allows(request, role: role) else {
            return .failure(.forbidden, ControlAccessPolicy.refusal(request.operation, role: role))
        }
        let now = time.uptime
        if role == .screen, !binding.withLock({ $0.allows(request, at: now) }) { return Self.unbound }
        return throttled(request.operation, role: role, at: now)
    }

    /// The answer for a line of a known operation that could not be read whole
    /// (``ControlRequestError/Code/incomplete``) when the peer may not send it now, or nil when the daemon
    /// answers it as a bad request: the same rules, by what the line still says. A note or badge from
    /// the screen that names no attendee names none the screen has just checked in.
    public func refusal(forIncomplete error: ControlRequestError, role: ControlPeerRole) -> ControlResponse? {
        guard let operation = error.operation else { return nil }
        guard ControlAccessPolicy.allows(incomplete: error, role: role) else {
            return .failure(.forbidden, ControlAccessPolicy.refusal(operation, role: role))
        }
        if role == .screen, operation == .note || operation == .badge { return Self.unbound }
        return throttled(operation, role: role, at: time.uptime)
    }

    static let unbound = ControlResponse.failure(
        .forbidden,
        "the kiosk screen may add a note or badge only for the attendee it has just checked in"
    )

    /// The brake's answer for a request of `operation` at `now`, or nil when it may go ahead.
    private func throttled(
        _ operation: ControlRequest.Operation,
        role: ControlPeerRole,
        at now: Duration
    )
        -> ControlResponse?
    {
        guard Self.isThrottled(operation, role: role) else { return nil }
        guard case .wait(let wait) = throttle.withLock({ $0.admit(at: now) }) else { return nil }
        let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
        let failure = ControlFailure(
            .rateLimited,
            "too many tickets or emails not found; please see staff (try again in \(seconds) s)",
            retryAfterSeconds: seconds
        )
        return .error(failure)
    }

    /// Tells the screen's binding and the brake what a request was answered (``LookupThrottle/record(_:answer:at:)``
    /// says what counts as a miss and what forgives one).
    public func answered(_ request: ControlRequest, with response: ControlResponse, role: ControlPeerRole) {
        let now = time.uptime
        if role == .screen { binding.withLock { $0.record(request, answer: response, at: now) } }
        guard Self.isThrottled(request.operation, role: role) else { return }
        // A spot's code that opens no spot is a miss like a ticket that finds no one (issue 36): guessing
        // codes at the screen meets the same brake as guessing tickets.
        if case .attend(_, _?) = request, case .refused(let refusal) = response, refusal.reason == .wrongCode {
            throttle.withLock { $0.recordMiss(at: now) }
            return
        }
        throttle.withLock { $0.record(request, answer: response.outcome, at: now) }
    }

    /// Lookups by anyone but staff, and check-ins, session scans and walk-in registrations too: a check-in
    /// or a session scan by ticket code answers "not found" just as a lookup does (and a session scan
    /// whether a spot's code is open), and a registration answers whether an email is on the list, so
    /// any of them would otherwise be the way around the brake.
    static func isThrottled(_ operation: ControlRequest.Operation, role: ControlPeerRole) -> Bool {
        role != .staff && [.lookup, .checkIn, .register, .attend].contains(operation)
    }
}
