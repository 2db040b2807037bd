import MusterCore

/// The times `muster session add` reads (issue 36): `--at 10:00-11:30` (today), `--at '2026-11-29
/// 10:00-11:30'`, or `--from` and `--until` in any form ``TimeParsing`` reads; and margins like `15m`.
public enum SessionTimes {
    public static func window(at: String?, from: String?, until: String?) throws(ClientError) -> (Int64, Int64) {
        let start: Int64
        let end: Int64
        if let at {
            let text = at.trimmingWhitespace()
            guard let dash = text.lastIndex(of: "-"), dash != text.startIndex else {
                throw ClientError(.usage, "--at '\(TerminalText.sanitize(at))': use HH:MM-HH:MM")
            }
            let left = String(text[..<dash]).trimmingWhitespace()
            var right = String(text[text.index(after: dash)...]).trimmingWhitespace()
            // "2026-11-29 10:00-11:30": the end is on the start's day.
            if let space = left.lastIndex(where: { $0 == " " || $0 == "T" }), !right.contains(" ") {
                right = String(left[...space]) + right
            }
            start = try OrganizerActions.time(left, "--at")
            end = try OrganizerActions.time(right, "--at")
        } else {
            start = try OrganizerActions.time(from ?? "", "--from")
            end = try OrganizerActions.time(until ?? "", "--until")
        }
        guard end > start else { throw ClientError(.usage, "a session must end after it starts") }
        return (start, end)
    }

    /// A margin such as `15m` or `0`, in milliseconds (at most a day); `fallback` when not given.
    public static func margin(_ text: String?, _ fallback: Int64) throws(ClientError) -> Int64 {
        guard let text else { return fallback }
        if text.trimmingWhitespace() == "0" { return 0 }
        let millis = try ArrivalsReport.bucketMillis(text)
        guard millis <= 86_400_000 else { throw ClientError(.usage, "'\(TerminalText.sanitize(text))' is over a day") }
        return millis
    }
}
