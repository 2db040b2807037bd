/// When a peer counts as gone: heard from longer ago than the timeout, and not while we are storing
/// what it sent (storing is our own work, not its silence: a kiosk slowed down by a burst must not
/// drop the sessions that feed it).
///
/// One rule with two clocks: the core applies it to what it has processed, in the simulator and in a
/// test; the daemon applies it on the event loop, where whole frames count as life even while the
/// service is too busy to process them (`LastHeard`, `LivenessHandler`), so the core's own check is
/// off there (``SyncCore/Configuration/silenceTimeout`` nil).
public enum Silence {
    /// Whether a peer last heard `heardAgo` ago is silent, `storing` of its batches being stored.
    public static func isSilent(heardAgo: Duration, storing: Bool, timeout: Duration) -> Bool {
        !storing && heardAgo > timeout
    }
}
