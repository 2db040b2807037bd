/// What one connection may send before its session is established: the handshake's frames at
/// their real sizes, in order, within ``SyncLimits/handshakeTimeout`` of the connection opening.
///
/// Either side receives three fixed-size frames before it holds a key the peer proved it knows
/// (`HandshakeMessage`: a 64-byte hello, a 112-byte auth or accept, then the 24-byte
/// secretstream header); until then a frame announcing more is refused before anything of it is
/// buffered. After those three the peer has shown the venue network key, and frames may be as
/// large as ``SyncLimits/maxFrameBytes``. The deadline runs until ``established()`` (credentials
/// checked), so a stranger cannot hold a connection open by sending slowly.
///
/// A pure state machine: the frame decoder asks ``check(frameLength:)`` for each length prefix
/// and reports each whole frame; the driver calls ``expired(now:)`` when the deadline timer fires.
public struct HandshakeGate: Sendable {
    /// Largest size of each frame received before the handshake keys are proven (both roles
    /// receive the same sizes: hello, auth/accept, secretstream header).
    public static let handshakeFrames: [Int] = [64, 112, 24]

    public enum Phase: Equatable, Sendable {
        /// `frames` whole frames received so far, all of the handshake.
        case handshake(frames: Int)
        /// The handshake keys are proven; waiting for the credentials to check out.
        case credentials
        /// The session is established: no deadline, frames up to the protocol's limit.
        case established
        /// Refused or timed out: the connection is being closed.
        case closed
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

    /// The largest frame acceptable now.
    public var frameLimit: Int {
        switch phase {
        case .handshake(let frames): Self.handshakeFrames[frames]
        case .credentials, .established: maxFrameBytes
        case .closed: 0
        }
    }

    /// A frame of `frameLength` bytes is announced: may it be read? A refusal closes the gate.
    public mutating func check(frameLength: Int) throws(Violation) {
        let limit = frameLimit
        guard frameLength <= limit, phase != .closed else {
            phase = .closed
            throw .frameTooLarge(size: frameLength, limit: limit)
        }
    }

    /// A whole frame was received.
    public mutating func frameReceived() {
        guard case .handshake(let frames) = phase else { return }
        phase = frames + 1 < Self.handshakeFrames.count ? .handshake(frames: frames + 1) : .credentials
    }

    /// The peer's credentials checked out: the session is established. Returns false when the gate
    /// had already closed (the deadline passed first), in which case the session must not start.
    public mutating func established() -> Bool {
        guard phase != .closed else { return false }
        phase = .established
        return true
    }

    /// The deadline timer fired (or any moment the driver looks): returns the violation when the
    /// connection must close now.
    public mutating func expired(now: Duration) -> Violation? {
        switch phase {
        case .established, .closed:
            return nil
        case .handshake, .credentials:
            guard now >= deadline else { return nil }
            phase = .closed
            return .deadline(timeout)
        }
    }
}
