/// What one connection may send before its peer is admitted: the handshake's frames at their real
/// sizes, in order, then one credentials message, within ``SyncLimits/handshakeTimeout`` of the
/// connection opening.
///
/// Either side receives three fixed-size frames before it holds a key the peer proved it knows
/// (`HandshakeMessage`: a 64-byte hello, a 112-byte auth or accept, then the 24-byte
/// secretstream header); until then a frame announcing more is refused before anything of it is
/// buffered. The handshake proves only that the peer holds the venue network key, which a
/// throwaway signing key completes as well as a kiosk's, so the next frame, the peer's credentials,
/// is held to ``SyncLimits/maxCredentialsFrameBytes``. Frames after it wait unread while the
/// credentials are judged (an honest listener sends its session's first messages right behind its
/// credentials); once the peer is admitted they may be as large as ``SyncLimits/maxFrameBytes``, or
/// ``SyncLimits/maxRekeyFrameBytes`` in a session under a retired key, which only hands over keys.
/// The deadline runs until ``admitted(rekey:)``, so a stranger cannot hold a connection open by
/// sending slowly.
///
/// A pure state machine: the frame decoder asks ``check(frameLength:)`` for each length prefix
/// and reports each whole frame; while ``holdsReads`` the driver stops reading the socket; the
/// driver calls ``expired(now:)`` when the deadline timer fires.
public struct HandshakeGate: Sendable {
    /// Largest size of each frame received before the handshake keys are proven (both roles
    /// receive the same sizes: hello, auth/accept, secretstream header).
    public static let handshakeFrames: [Int] = [64, 112, 24]

    public enum Phase: Equatable, Sendable {
        /// `frames` whole frames received so far, all of the handshake.
        case handshake(frames: Int)
        /// The handshake keys are proven; the next frame is the peer's credentials (or, for a revoked
        /// kiosk, its revocation).
        case credentials
        /// The credentials arrived and are being judged: nothing more is read until the verdict.
        case admitting
        /// Refused as revoked: one more frame, the peer's appeal (one organizer delta, see
        /// `SyncService.appeal`), may come under the credentials' cap before the deadline.
        case appeal
        /// Admitted under a retired network key: a session that only hands over keys.
        case rekey
        /// The session is established: no deadline, frames up to the protocol's limit.
        case established
        /// Refused or timed out: the connection is being closed.
        case closed
    }

    /// What to do with an announced frame that is not refused.
    public enum Decision: Equatable, Sendable {
        /// Read it now.
        case read
        /// Leave it unread, and stop reading the socket, until the peer is admitted.
        case wait
    }

    public enum Violation: Error, Equatable, Sendable, CustomStringConvertible {
        case frameTooLarge(size: Int, limit: Int)
        case deadline(Duration)

        public var description: String {
            switch self {
            case .frameTooLarge(let size, let limit): "frame of \(size) bytes where at most \(limit) may come"
            case .deadline(let limit): "handshake not finished within \(limit)"
            }
        }
    }

    public private(set) var phase: Phase = .handshake(frames: 0)
    /// Whether a frame waits unread for the peer to be admitted (the driver reads nothing meanwhile).
    public private(set) var holdsReads = false
    /// Whether the one appeal a refused peer may make was allowed (``appealing()``).
    private var appealed = false
    /// When the handshake must be over, in the injected clock's uptime.
    public let deadline: Duration
    public let timeout: Duration
    public let maxFrameBytes: Int

    /// - Parameters:
    ///   - opened: the clock's uptime when the connection opened.
    public init(
        opened: Duration,
        timeout: Duration = SyncLimits.handshakeTimeout,
        maxFrameBytes: Int = Int(SyncLimits.maxFrameBytes)
    ) {
        deadline = opened + timeout
        self.timeout = timeout
        self.maxFrameBytes = maxFrameBytes
    }

    /// The largest frame read now; a larger one is refused, or waits while the peer is judged or
    /// in a rekey session (up to ``maxFrameBytes``).
    public var frameLimit: Int {
        switch phase {
        case .handshake(let frames): Self.handshakeFrames[frames]
        case .credentials: SyncLimits.maxCredentialsFrameBytes
        case .appeal: SyncLimits.maxAppealFrameBytes
        case .admitting, .closed: 0
        case .rekey: SyncLimits.maxRekeyFrameBytes
        case .established: maxFrameBytes
        }
    }

    /// A frame of `frameLength` bytes is announced: may it be read now? A refusal closes the gate.
    public mutating func check(frameLength: Int) throws(Violation) -> Decision {
        if phase != .closed, phase != .admitting, frameLength <= frameLimit { return .read }
        // While the peer is judged nothing is read; in a rekey session nothing over its cap.
        let mayWait = phase == .admitting || phase == .rekey
        if mayWait, frameLength <= maxFrameBytes {
            holdsReads = true
            return .wait
        }
        let limit = mayWait ? maxFrameBytes : frameLimit
        phase = .closed
        throw .frameTooLarge(size: frameLength, limit: limit)
    }

    /// A whole frame was received.
    public mutating func frameReceived() {
        switch phase {
        case .handshake(let frames):
            phase = frames + 1 < Self.handshakeFrames.count ? .handshake(frames: frames + 1) : .credentials
        case .credentials, .appeal:
            phase = .admitting
        case .admitting, .rekey, .established, .closed:
            break
        }
    }

    /// The peer's credentials checked out: the session is established, or under a retired key
    /// (`rekey`) a session that only hands over keys; a frame that waited may be read. Returns false
    /// when the gate had already closed (the deadline passed first), in which case the session must
    /// not start.
    public mutating func admitted(rekey: Bool) -> Bool {
        guard phase != .closed else { return false }
        phase = rekey ? .rekey : .established
        holdsReads = false
        return true
    }

    /// The peer was refused as revoked: its appeal may come (``Phase/appeal``), a frame that waited
    /// may be read if it fits. Returns false when the gate had already closed.
    public mutating func appealing() -> Bool {
        guard phase == .admitting, !appealed else { return false }
        appealed = true
        phase = .appeal
        holdsReads = false
        return true
    }

    /// The deadline timer fired (or any moment the driver looks): returns the violation when the
    /// connection must close now.
    public mutating func expired(now: Duration) -> Violation? {
        switch phase {
        case .rekey, .established, .closed:
            return nil
        case .handshake, .credentials, .admitting, .appeal:
            guard now >= deadline else { return nil }
            phase = .closed
            return .deadline(timeout)
        }
    }
}
