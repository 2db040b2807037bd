public import MusterCore
public import MusterRules

/// One line of the attendance report (issue 36): a session, one person's attendance of it, and who
/// they are (nil when the list does not hold them, e.g. a registration for an email never imported).
public struct SessionAttendance: Sendable, Equatable {
    public var session: SessionRecord
    public var line: AttendanceLedger.Line
    public var attendee: AttendeeRecord?

    public init(session: SessionRecord, line: AttendanceLedger.Line, attendee: AttendeeRecord?) {
        self.session = session
        self.line = line
        self.attendee = attendee
    }

    /// Every line of a campaign at `nowMillis`, by session start, then session id, then entry time, then key:
    /// what `muster export sessions` writes and `muster session watch` shows.
    public static func lines(
        sessions: [String: SessionRecord],
        records: [String: [AttendanceRecord]],
        registrations: [String: Set<String>],
        attendees: [String: AttendeeRecord],
        nowMillis: Int64
    ) -> [SessionAttendance] {
        var registeredByKey: [String: Set<String>] = [:]
        for (session, keys) in registrations { for key in keys { registeredByKey[key, default: []].insert(session) } }
        let keys = Set(records.keys).union(registeredByKey.keys)
        var out: [SessionAttendance] = []
        for key in keys {
            let lines = AttendanceLedger.lines(
                attendeeKey: key,
                records: records[key] ?? [],
                sessions: sessions,
                registered: registeredByKey[key] ?? [],
                nowMillis: nowMillis
            )
            for line in lines {
                guard let session = sessions[line.sessionID], !session.payload.removed else { continue }
                out.append(SessionAttendance(session: session, line: line, attendee: attendees[key]))
            }
        }
        return out.sorted {
            ($0.session.payload.startMillis, $0.session.id, $0.line.inMillis ?? .max, $0.line.attendeeKey)
                < ($1.session.payload.startMillis, $1.session.id, $1.line.inMillis ?? .max, $1.line.attendeeKey)
        }
    }
}
