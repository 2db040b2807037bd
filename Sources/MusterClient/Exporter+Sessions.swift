import MusterCore
import MusterRules
import MusterTime

extension Exporter {
    /// Attendance per session and person (issue 36), for a certifying body or the CRM:
    /// `Session,Zone,Start,End,Attendee,Email,In,Out,Minutes,Status`. Times are ISO 8601 in UTC; In is
    /// the first entry, Out the last time presence ended (empty while the person is still in).
    public static func sessions(_ lines: [SessionAttendance]) -> String {
        document(
            header: ["Session", "Zone", "Start", "End", "Attendee", "Email", "In", "Out", "Minutes", "Status"],
            rows: lines.map { item in
                let session = item.session.payload
                return [
                    session.name, session.zone, ClockText.iso8601(millis: session.startMillis),
                    ClockText.iso8601(millis: session.endMillis), item.attendee?.displayName ?? "",
                    item.attendee?.email ?? item.line.attendeeKey, item.line.inMillis.map(ClockText.iso8601) ?? "",
                    item.line.outMillis.map(ClockText.iso8601) ?? "", String(item.line.minutes),
                    item.line.status.rawValue,
                ]
            }
        )
    }

    /// One attendance certificate line per person and session attended: "Ada Lovelace (ada@…) attended
    /// 'Swift on Linux', Lab, 2026-11-29 10:00–11:30, for 85 minutes (present)." Absent lines are left out.
    public static func certificates(_ lines: [SessionAttendance]) -> String {
        lines.filter { $0.line.status != .absent }.map { item in
            let session = item.session.payload
            let who = item.attendee.map { "\($0.displayName) <\($0.email)>" } ?? item.line.attendeeKey
            let when =
                ClockText.dateTime(millis: session.startMillis) + "–" + ClockText.time(millis: session.endMillis)
            let line =
                "\(who) attended '\(session.name)', \(session.zone), \(when), for \(item.line.minutes) minutes "
                + "(\(item.line.status.rawValue.replacingOccurrences(of: "_", with: " ")))."
            return TerminalText.sanitize(line, maxCharacters: Limits.maxFieldBytes) + "\n"
        }.joined()
    }
}
