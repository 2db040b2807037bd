/// Attendance per session and person (issue 36), as one pure function of the session records and the
/// attendance records a replica holds, so every kiosk holding the same records shows the same
/// minutes and statuses whatever order the records arrived in.
///
/// The rules, reading one person's records in the replicas' order (``AttendanceRecord/precedes(_:_:)``):
/// - entering a session starts presence in it; entering it again while in changes nothing;
/// - a person is in one session at a time: entering another ends the first at that moment;
/// - leaving ends presence; a leave of a session the person is not in changes nothing;
/// - a session's end ends presence in it; presence counts only inside [start, end);
/// - records of a removed or unknown session count for nothing (they are kept: a session that comes
///   back, or arrives late, counts them again).
///
/// Minutes are whole minutes of presence, rounded down. The status: `late` when the first entry is more
/// than the session's ``SessionPayload/lateAfterMillis`` after its start; otherwise `left_early` when
/// presence ended that long before the end (and the person is not back in); otherwise `present`.
/// A registered attendee with no entry is `absent`.
public enum AttendanceLedger {
    public enum Status: String, Sendable, Equatable, CaseIterable {
        case present
        case late
        case leftEarly = "left_early"
        case absent
    }

    /// One person's attendance of one session.
    public struct Line: Sendable, Equatable {
        public var sessionID: String
        public var attendeeKey: String
        /// The first entry, clamped to the session's start; nil: never entered.
        public var inMillis: Int64?
        /// The last time presence ended; nil while the person is still in (or never entered).
        public var outMillis: Int64?
        public var presentMillis: Int64
        public var status: Status

        public var minutes: Int64 { presentMillis / 60_000 }
    }

    /// The session `attendeeKey` is in at `nowMillis`, if any: a second scan there is a leave.
    public static func current(
        of records: [AttendanceRecord],
        sessions: [String: SessionRecord],
        nowMillis: Int64
    ) -> String? {
        var walk = Walk(sessions: sessions)
        for record in records.sorted(by: AttendanceRecord.precedes) where record.atMillis <= nowMillis {
            walk.read(record)
        }
        walk.close(endedBy: nowMillis)
        return walk.inside?.session
    }

    /// Every line of one person: one per session they entered, plus `registered` sessions they never
    /// entered (`absent`), at `nowMillis`.
    public static func lines(
        attendeeKey: String,
        records: [AttendanceRecord],
        sessions: [String: SessionRecord],
        registered: Set<String> = [],
        nowMillis: Int64
    ) -> [Line] {
        var walk = Walk(sessions: sessions)
        for record in records.sorted(by: AttendanceRecord.precedes) where record.atMillis <= nowMillis {
            walk.read(record)
        }
        walk.close(endedBy: nowMillis)
        walk.countOpen(until: nowMillis)
        var lines: [Line] = []
        for (id, tally) in walk.tallies {
            guard let session = sessions[id]?.payload else { continue }
            let margin = Int64(session.lateAfterMillis)
            let stillIn = walk.inside?.session == id
            let status: Status =
                tally.firstIn > session.startMillis + margin
                ? .late
                : (!stillIn && (tally.lastOut ?? session.endMillis) < session.endMillis - margin
                    ? .leftEarly : .present)
            lines.append(
                Line(
                    sessionID: id,
                    attendeeKey: attendeeKey,
                    inMillis: tally.firstIn,
                    outMillis: stillIn ? nil : tally.lastOut,
                    presentMillis: tally.present,
                    status: status
                )
            )
        }
        for id in registered where walk.tallies[id] == nil && sessions[id] != nil {
            lines.append(
                Line(
                    sessionID: id,
                    attendeeKey: attendeeKey,
                    inMillis: nil,
                    outMillis: nil,
                    presentMillis: 0,
                    status: .absent
                )
            )
        }
        return lines.sorted { $0.sessionID < $1.sessionID }
    }

    /// One person's records read in order: where they are, and what each session has counted.
    struct Walk {
        struct Tally {
            var firstIn: Int64
            var lastOut: Int64?
            var present: Int64 = 0
        }

        let sessions: [String: SessionRecord]
        var inside: (session: String, since: Int64)?
        var tallies: [String: Tally] = [:]

        init(sessions: [String: SessionRecord]) { self.sessions = sessions }

        mutating func read(_ record: AttendanceRecord) {
            guard let session = sessions[record.sessionID]?.payload, !session.removed else { return }
            let at = record.atMillis
            close(endedBy: at)
            switch record.direction {
            case .entered:
                guard inside?.session != record.sessionID else { return }
                guard at < session.endMillis else { return }
                if let current = inside { end(current.session, from: current.since, at: at) }
                let from = max(at, session.startMillis)
                inside = (record.sessionID, from)
                if tallies[record.sessionID] == nil { tallies[record.sessionID] = Tally(firstIn: from) }
            case .left:
                guard let current = inside, current.session == record.sessionID else { return }
                end(current.session, from: current.since, at: at)
            }
        }

        /// Ends presence in a session whose end is at or before `now`.
        mutating func close(endedBy now: Int64) {
            guard let current = inside, let end = sessions[current.session]?.payload.endMillis, end <= now else {
                return
            }
            self.end(current.session, from: current.since, at: end)
        }

        /// Counts the presence of whoever is still in up to `now`, without ending it (the last step).
        mutating func countOpen(until now: Int64) {
            guard let current = inside else { return }
            tallies[current.session]?.present += max(0, now - current.since)
        }

        private mutating func end(_ id: String, from since: Int64, at: Int64) {
            let end = min(at, sessions[id]?.payload.endMillis ?? at)
            tallies[id]?.present += max(0, end - since)
            tallies[id]?.lastOut = end
            inside = nil
        }
    }
}
