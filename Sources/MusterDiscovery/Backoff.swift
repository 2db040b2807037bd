/// Delays between attempts to reach avahi-daemon: 250 ms doubling to 30 s, reset once connected.
///
/// A client made with `AVAHI_CLIENT_NO_FAIL` already waits for the daemon by itself; the backoff
/// covers what that cannot: the system D-Bus being down, or a client that keeps failing. It stops a
/// broken system from turning the daemon's log into a tight loop while keeping a restart of
/// avahi-daemon (a second or two) almost unnoticed.
struct Backoff: Sendable {
    let initial: Duration
    let maximum: Duration
    private var current: Duration?

    init(initial: Duration = .milliseconds(250), maximum: Duration = .seconds(30)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before the next attempt; each call doubles it up to `maximum`.
    mutating func next() -> Duration {
        let delay = current.map { min($0 * 2, maximum) } ?? initial
        current = delay
        return delay
    }

    /// After a success, the next failure starts again from `initial`.
    mutating func reset() {
        current = nil
    }
}
