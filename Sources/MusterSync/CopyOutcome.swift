/// How a local write was acknowledged (``SyncService/awaitCopies(_:within:)``, `ack_copies`).
public enum CopyOutcome: Sendable, Equatable {
    /// This many peers hold it: it survives this kiosk's disk.
    case held(peers: Int)
    /// No peer is in session: acknowledged at once, held on this kiosk only ("saved here only").
    case alone
    /// Peers are in session but not enough said they hold it within the bound: acknowledged, saved
    /// here only until they do.
    case unanswered
    /// Asked for one copy (this kiosk's own): nothing was waited for.
    case notAsked
}
