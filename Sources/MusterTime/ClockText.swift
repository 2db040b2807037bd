import Foundation

/// Local-time rendering of timestamps for screens and exports.
public enum ClockText {
    /// "09:14" in the kiosk's local time zone.
    public static func time(millis: Int64) -> String {
        format(millis: millis, pattern: "HH:mm")
    }

    /// "2026-11-22 09:14:03" in local time (exports, organizer views).
    public static func dateTime(millis: Int64) -> String {
        format(millis: millis, pattern: "yyyy-MM-dd HH:mm:ss")
    }

    /// ISO 8601 with offset, for machine-readable exports.
    public static func iso8601(millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = .current
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    private static func format(millis: Int64, pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }
}
