public import MusterControl
import MusterTime

/// musterd's own brake on guessing ticket codes: after repeated not-found answers to the public
/// screen's user, lookups wait, longer after each further miss.
///
/// The screen backs off by itself (``MusterClient``'s `KioskScreen`), but that brake lives in the
/// process an attacker would escape from; a process running as `muster-screen` could otherwise ask
/// `lookup` in a loop. This is the same brake on the daemon's side, as a pure value driven by the
/// times it is given (the control server's injected `TimeSource`), so tests run it on a `ManualClock`.
///
/// It is deliberately looser than the screen's (twice the free misses, misses forgiven one at a time
/// as time passes), so an honest screen reaches its own back-off first and never sees this one
/// except after many misses; staff lookups never pass through it. Walk-in registrations pass
/// through it too (see ``record(_:answer:at:)``).
public struct LookupThrottle: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// Misses allowed before lookups start to wait.
        public var freeMisses: Int
        /// The wait after the first miss beyond the free ones; doubled for each further miss.
        public var firstBackoff: Duration
        public var maxBackoff: Duration
        /// One miss is forgotten for each this long that passes, so occasional typos never add up.
        public var forgiveEvery: Duration

        public init(freeMisses: Int, firstBackoff: Duration, maxBackoff: Duration, forgiveEvery: Duration) {
            self.freeMisses = freeMisses
            self.firstBackoff = firstBackoff
            self.maxBackoff = maxBackoff
            self.forgiveEvery = forgiveEvery
        }

        /// The daemon's brake for a screen configured with `options`: twice its free misses, its
        /// first and longest waits, and one miss forgiven every 20 s.
        public init(screen options: ScreenOptions) {
            self.init(
                freeMisses: options.freeMisses * 2,
                firstBackoff: options.firstBackoff,
                maxBackoff: options.maxBackoff,
                forgiveEvery: .seconds(20)
            )
        }
    }

    public enum Decision: Sendable, Equatable {
        case allow
        /// Refused; the lookup may be tried again after this long.
        case wait(Duration)
    }

    public let settings: Settings
    /// Misses not yet forgiven.
    public private(set) var misses = 0
    /// From when forgiving counts (the last miss, or the last time one was forgiven).
    private var forgivenThrough: Duration = .zero
    /// Until when lookups are refused; nil: not waiting.
    public private(set) var blockedUntil: Duration?
    /// The query of the last lookup that found someone: its check-in forgives a miss, once.
    private var lastFound: String?
    /// The query of the last miss: a registration of that same email is not counted again.
    private var lastMissed: String?

    public init(settings: Settings) { self.settings = settings }

    /// Whether a lookup at uptime `now` may go ahead.
    public mutating func admit(at now: Duration) -> Decision {
        forgive(upTo: now)
        if let blockedUntil, now < blockedUntil { return .wait(blockedUntil - now) }
        blockedUntil = nil
        return .allow
    }

    /// A lookup at `now` found no one: count it, and start the wait once the free misses are used.
    public mutating func recordMiss(at now: Duration) {
        forgive(upTo: now)
        if misses == 0 { forgivenThrough = now }
        misses += 1
        guard misses > settings.freeMisses else { return }
        blockedUntil = now + backoff(afterMisses: misses)
    }

    /// Counts what the answer to a braked request says: the one place that decides what is a miss and
    /// what forgives one.
    ///
    /// - A lookup or check-in that found no one is a miss.
    /// - A walk-in registration is a miss too (`register` answers whether an email is on the list, so it
    ///   would otherwise be an oracle without a brake), unless it registers the very email whose lookup
    ///   was the last miss: the screen looks a walk-in's email up before registering it, and that
    ///   person should cost one miss, not two.
    /// - Only the check-in of the ticket or email last looked up and found forgives a miss: someone who
    ///   mistyped and then found their ticket leaves the next person no closer to the wait. A walk-in
    ///   no longer forgives one: a throwaway registration after each miss laundered the brake (issue
    ///   32: 275 misses in 0.8 s, none refused).
    public mutating func record(_ request: ControlRequest, answer: ControlResponse.Outcome, at now: Duration) {
        switch (request, answer) {
        case (.lookup(let query), .found):
            lastFound = query
        case (.checkIn(let query), .checkedIn), (.attend(let query, _), .attended):
            guard lastFound == query else { return }
            lastFound = nil
            misses = max(0, misses - 1)
        case (.lookup(let query), .notFound), (.checkIn(let query), .notFound), (.attend(let query, _), .notFound):
            recordMiss(at: now)
            lastMissed = query
        case (.register(let walkIn), _):
            if lastMissed == walkIn.email {
                lastMissed = nil
                return
            }
            recordMiss(at: now)
        default:
            return
        }
    }

    /// The wait after `misses` unforgiven misses: nothing up to the free ones, then the first wait
    /// doubled for each further miss, never more than the maximum.
    public func backoff(afterMisses misses: Int) -> Duration {
        Backoff(initial: settings.firstBackoff, maximum: settings.maxBackoff)
            .delay(afterFailures: misses - settings.freeMisses)
    }

    private mutating func forgive(upTo now: Duration) {
        guard misses > 0, settings.forgiveEvery > .zero, now > forgivenThrough else { return }
        let periods = Int((now - forgivenThrough) / settings.forgiveEvery)
        guard periods > 0 else { return }
        misses = max(0, misses - periods)
        forgivenThrough += settings.forgiveEvery * periods
    }
}
