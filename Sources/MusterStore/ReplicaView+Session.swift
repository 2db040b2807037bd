import Foundation
import GRDB
public import MusterCore
public import MusterRules

extension ReplicaView {
    /// Every session the replica holds (removed ones too: their attendance is kept), with its writer's
    /// roster name (a spot's host kiosk).
    public func sessions() throws -> [SessionRecord] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT s.payload, s.lww_hlc, s.lww_author, COALESCE(r.name, '') AS host
                    FROM session s LEFT JOIN roster r ON r.kiosk = s.lww_author ORDER BY s.id
                    """
            )
        ).compactMap { row in
            let bytes: Data = row["payload"]
            let author: Data = row["lww_author"]
            let hlc: Int64 = row["lww_hlc"]
            guard case .session(let payload)? = try? DeltaBody.decode(kind: .session, bytes: Array(bytes)),
                let authorID = AuthorID(bytes: author)
            else { return nil }
            return SessionRecord(
                payload: payload,
                author: authorID,
                hlc: HLC(packed: UInt64(hlc)),
                hostName: row["host"]
            )
        }
    }

    /// Whether `zone` follows a schedule (a scheduled session not removed): then its doors take
    /// attendance. One read of a table of a few rows, not a decode of every session: it is
    /// asked before every door scan.
    public func hasSchedule(zone: String) throws -> Bool {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM session WHERE zone = ? AND code IS NULL AND removed = 0 LIMIT 1"),
            arguments: [zone]
        ) != nil
    }

    /// Sessions by id, for ``AttendanceLedger``.
    public func sessionsByID() throws -> [String: SessionRecord] {
        Dictionary(try sessions().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// One person's attendance records, every session, in the replicas' order.
    public func attendance(campaignID: String, attendeeKey: String) throws -> [AttendanceRecord] {
        try Row.fetchAll(
            db.cachedStatement(sql: Self.attendanceSQL + " WHERE a.campaign_id = ? AND a.attendee_key = ?"),
            arguments: [campaignID, attendeeKey]
        ).compactMap(Self.attendance).sorted(by: AttendanceRecord.precedes)
    }

    /// Every attendance record of a campaign, by attendee key (the export and the host's list).
    public func attendance(campaignID: String) throws -> [String: [AttendanceRecord]] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: Self.attendanceSQL + " WHERE a.campaign_id = ?"),
            arguments: [campaignID]
        )
        var byKey: [String: [AttendanceRecord]] = [:]
        for row in rows {
            if let record = Self.attendance(row) { byKey[record.attendeeKey, default: []].append(record) }
        }
        return byKey
    }

    /// The attendees registered for each session of a campaign.
    public func registrations(campaignID: String) throws -> [String: Set<String>] {
        var bySession: [String: Set<String>] = [:]
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT session_id, attendee_key FROM session_registration WHERE campaign_id = ?"),
            arguments: [campaignID]
        )
        for row in rows { bySession[row["session_id"], default: []].insert(row["attendee_key"]) }
        return bySession
    }

    /// Whether the attendee is registered for the session.
    public func isRegistered(sessionID: String, campaignID: String, attendeeKey: String) throws -> Bool {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT 1 FROM session_registration WHERE session_id = ? AND campaign_id = ? AND attendee_key = ?"
            ),
            arguments: [sessionID, campaignID, attendeeKey]
        ) != nil
    }

    /// The attendees `kiosk` let into the session (any entry it wrote): what its share of the capacity counts.
    public func seats(sessionID: String, kiosk: AuthorID) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COUNT(DISTINCT attendee_key) FROM attendance
                    WHERE session_id = ? AND author = ? AND direction = \(AttendancePayload.Direction.entered.rawValue)
                    """
            ),
            arguments: [sessionID, Data(kiosk.bytes)]
        ) ?? 0
    }

    /// Attendees let into the session by any kiosk: its capacity in use, the same on every replica that
    /// holds the same records.
    public func admitted(sessionID: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COUNT(DISTINCT campaign_id || ' ' || attendee_key) FROM attendance
                    WHERE session_id = ? AND direction = \(AttendancePayload.Direction.entered.rawValue)
                    """
            ),
            arguments: [sessionID]
        ) ?? 0
    }

    /// One session door's answer to `query` (with a spot's `code`, if typed), judged by
    /// ``SessionPolicy`` inside the caller's write transaction, with the delta to record.
    public func judgeAttendance(
        _ query: String,
        code: String?,
        kiosk: AuthorID,
        zone: String,
        nowMillis now: Int64
    ) throws -> (record: AttendeeRecord?, session: SessionRecord?, decision: SessionPolicy.Decision, body: DeltaBody?) {
        let sessions = try sessions()
        let session: SessionRecord
        switch SessionPolicy.choose(code: code, zone: zone, sessions: sessions, nowMillis: now) {
        case .refuse(let reason, let message): return (nil, nil, .refuse(reason, message: message), nil)
        case .session(let chosen): session = chosen
        }
        let lock = try lock()
        let record = try lock?.campaignID.flatMap { try lookup(campaignID: $0, query: query) }
        var inside = false
        var registered = false
        var holdsSeat = false
        if let record {
            let held = try attendance(campaignID: record.campaignID, attendeeKey: record.key)
            holdsSeat = held.contains {
                $0.sessionID == session.id && $0.direction == .entered && $0.ref.author == kiosk
            }
            let byID = Dictionary(sessions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            inside = AttendanceLedger.current(of: held, sessions: byID, nowMillis: now) == session.id
            registered = try isRegistered(sessionID: session.id, campaignID: record.campaignID, attendeeKey: record.key)
        }
        let decision = SessionPolicy.decide(
            lock: lock,
            attendee: record,
            session: session,
            inside: inside,
            registered: registered,
            ownSeats: try seats(sessionID: session.id, kiosk: kiosk),
            holdsSeat: holdsSeat,
            door: kiosk,
            nowMillis: now
        )
        guard case .attend(let direction) = decision, let record else { return (record, session, decision, nil) }
        let body = DeltaBody.attendance(
            AttendancePayload(
                campaignID: record.campaignID,
                attendeeKey: record.key,
                sessionID: session.id,
                direction: direction
            )
        )
        return (record, session, decision, body)
    }

    static let attendanceSQL = """
        SELECT a.author, a.seq, a.hlc, a.session_id, a.attendee_key, a.direction,
            COALESCE(r.name, '') AS kiosk_name, COALESCE(r.location, '') AS location
        FROM attendance a LEFT JOIN roster r ON r.kiosk = a.author
        """

    static func attendance(_ row: Row) -> AttendanceRecord? {
        let author: Data = row["author"]
        let seq: Int64 = row["seq"]
        let hlc: Int64 = row["hlc"]
        let direction: Int64 = row["direction"]
        guard let authorID = AuthorID(bytes: author),
            let direction = AttendancePayload.Direction(rawValue: UInt8(clamping: direction))
        else { return nil }
        return AttendanceRecord(
            ref: DeltaRef(author: authorID, seq: UInt64(seq)),
            hlc: HLC(packed: UInt64(hlc)),
            kioskName: row["kiosk_name"],
            location: row["location"],
            sessionID: row["session_id"],
            attendeeKey: row["attendee_key"],
            direction: direction
        )
    }
}
