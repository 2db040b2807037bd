/// A `submit` request: signed deltas built by the organizer's `muster`, sent in chunks on one connection.
public struct OrganizerSubmission: Sendable, Equatable {
    /// What the daemon does with the deltas.
    public enum Step: Sendable, Equatable {
        /// Hold them on this connection instead of applying them; the next `apply` on the same connection
        /// applies everything staged and its own deltas in one transaction, so a submission too large for
        /// one request still becomes visible all at once, or not at all.
        case stage
        /// Apply them with everything staged before. `expectingStaged` is how many deltas the client
        /// staged first: the daemon refuses the submission when it holds a different number (a reconnect
        /// lost the stage), instead of applying part; nil when nothing was staged.
        case apply(expectingStaged: Int?)
    }

    public var deltas: [WireDelta]
    /// From an organizer device: the device's certificate (an enrollment the organizer key signed,
    /// ``MusterCore/EnrollRole/organizerDevice``), recorded on the roster before its deltas.
    public var certificate: WireDelta?
    public var step: Step

    public init(deltas: [WireDelta], certificate: WireDelta? = nil, step: Step = .apply(expectingStaged: nil)) {
        self.deltas = deltas
        self.certificate = certificate
        self.step = step
    }
}
