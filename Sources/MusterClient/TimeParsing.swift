import Foundation
import MusterTime

/// Parses the organizer's `--opens`/`--closes` times: `HH:MM` (today, local time),
/// `YYYY-MM-DD HH:MM`, `YYYY-MM-DDTHH:MM[:SS]` (local) or full ISO 8601 with an offset.
public enum TimeParsing {
    public static func millis(_ text: String, now: Date = SystemTime().wallDate) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: trimmed) { return Int64(date.timeIntervalSince1970 * 1000) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        for pattern in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            formatter.dateFormat = pattern
            if let date = formatter.date(from: trimmed) { return Int64(date.timeIntervalSince1970 * 1000) }
        }
        formatter.dateFormat = "HH:mm"
        guard let time = formatter.date(from: trimmed) else { return nil }
        let calendar = Calendar.current
        let parts = calendar.dateComponents([.hour, .minute], from: time)
        guard let date = calendar.date(bySettingHour: parts.hour ?? 0, minute: parts.minute ?? 0, second: 0, of: now)
        else { return nil }
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}
