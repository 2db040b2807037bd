import MusterCore

/// Aggregates one kiosk's not-found scans per minute, so a stream of bad codes (a broken scanner,
/// someone trying codes) costs at most two audit deltas a minute instead of one per scan.
///
/// The first not-found attempt of a minute is recorded at once (count 1); the others of that minute
/// are held here and recorded as one delta (their count, stamped with the minute's start) when the
/// minute is over: at the next attempt, or when the daemon's flush timer fires. Held counts live in
/// memory, so a crash loses at most one minute of repeats, never the first attempt of a minute.
///
/// A pure value: the daemon keeps it under a lock and carries out what it returns.
struct NotFoundTally: Sendable, Equatable {
    /// The aggregation window.
    static let windowMillis: Int64 = 60_000

    /// Held not-found attempts to record as one delta.
    struct Held: Sendable, Equatable {
        let windowStart: Int64
        let count: UInt32
    }

    private(set) var windowStart: Int64?
    private(set) var held: UInt32 = 0

    /// The start of the window `millis` falls in.
    static func window(of millis: Int64) -> Int64 {
        millis - ((millis % windowMillis) + windowMillis) % windowMillis
    }

    /// Counts one not-found attempt at `millis`. Returns what a past window still holds (to record
    /// first) and whether this attempt is the first of its window (to record now, count 1).
    mutating func attempt(atMillis millis: Int64) -> (flush: Held?, recordNow: Bool) {
        let start = Self.window(of: millis)
        if start == windowStart {
            held = held < ScanPayload.maxCount ? held + 1 : held
            return (nil, false)
        }
        let flushed = take()
        windowStart = start
        return (flushed, true)
    }

    /// What a window that is over (or any window, with `force`, at shutdown) still holds.
    mutating func due(nowMillis: Int64, force: Bool = false) -> Held? {
        guard let windowStart, force || Self.window(of: nowMillis) != windowStart else { return nil }
        return take()
    }

    private mutating func take() -> Held? {
        defer { held = 0 }
        guard let windowStart, held > 0 else { return nil }
        return Held(windowStart: windowStart, count: held)
    }
}
