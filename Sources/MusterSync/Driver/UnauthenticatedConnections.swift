import NIOCore
import Synchronization

/// The accepted connections still in their handshake, capped by ``HandshakeAdmission``: the thin
/// driver that closes whom the machine refuses or evicts, and all of them at shutdown.
public final class UnauthenticatedConnections: Sendable {
    private struct State {
        var admission: HandshakeAdmission
        var channels: [UInt64: any Channel] = [:]
        var nextID: UInt64 = 0
        var refusals = 0
        var closing = false
    }

    private let state: Mutex<State>

    public init(limits: HandshakeAdmission.Limits = .standard) {
        state = Mutex(State(admission: HandshakeAdmission(limits: limits)))
    }

    /// Takes a slot for a just-accepted channel; nil when the channel must be closed at once.
    /// A connection this one evicts is closed here.
    func admit(_ channel: any Channel) -> (refusal: HandshakeAdmission.Refusal?, id: UInt64) {
        let address = channel.remoteAddress?.ipAddress ?? "?"
        let (decision, id, evicted): (HandshakeAdmission.Decision, UInt64, (any Channel)?) = state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            guard !state.closing else { return (.refuse(.globalFull(limit: 0)), id, nil) }
            let decision = state.admission.accepted(id, from: address)
            switch decision {
            case .admit:
                state.channels[id] = channel
                return (decision, id, nil)
            case .admitEvicting(let victim):
                state.channels[id] = channel
                return (decision, id, state.channels.removeValue(forKey: victim))
            case .refuse:
                state.refusals += 1
                return (decision, id, nil)
            }
        }
        evicted?.close(promise: nil)
        if case .refuse(let refusal) = decision { return (refusal, id) }
        return (nil, id)
    }

    func release(_ id: UInt64) {
        state.withLock { state in
            state.admission.release(id)
            state.channels[id] = nil
        }
    }

    /// Unauthenticated connections open now.
    public var count: Int { state.withLock { $0.admission.count } }

    /// Connections refused so far (for tests and status).
    public var refusals: Int { state.withLock { $0.refusals } }

    /// Shutdown: every connection still in its handshake is closed, and new ones are refused.
    public func closeAll() {
        let channels = state.withLock { state in
            state.closing = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
