import Foundation
import GRDB
import MusterCore
public import MusterRules

extension Replica {
    /// Every door scan the replica knows of, oldest first: arrivals (check-ins and walk-in
    /// registrations, undone ones included and marked, since they were answered) and refused scans.
    /// Check-outs are not scans and are left out (the `log` export has them).
    public func auditLog(campaignID: String?) throws(ReplicaError) -> [AuditEntry] {
        try read { db in
            let checkOut = Int64(DeltaKind.checkOut.rawValue)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.author, p.seq, p.hlc, NULL AS at_millis, p.campaign_id, p.attendee_key,
                        NULL AS reason, 1 AS count, NULL AS session_id, 0 AS direction,
                        EXISTS (SELECT 1 FROM undo u WHERE u.target_author = p.author AND u.target_seq = p.seq)
                            AS undone,
                        COALESCE(r.name, '') AS kiosk_name, COALESCE(r.location, '') AS location
                    FROM presence p LEFT JOIN roster r ON r.kiosk = p.author
                    WHERE p.kind != ?1 AND (?2 IS NULL OR p.campaign_id = ?2)
                    UNION ALL
                    SELECT s.author, s.seq, s.hlc, s.at_millis, s.campaign_id, s.attendee_key, s.reason, s.count,
                        NULL AS session_id, 0 AS direction,
                        0 AS undone, COALESCE(r.name, '') AS kiosk_name, COALESCE(r.location, '') AS location
                    FROM scan s LEFT JOIN roster r ON r.kiosk = s.author
                    WHERE ?2 IS NULL OR s.campaign_id = ?2 OR s.campaign_id = ''
                    UNION ALL
                    SELECT a.author, a.seq, a.hlc, NULL AS at_millis, a.campaign_id, a.attendee_key, NULL AS reason,
                        1 AS count, a.session_id, a.direction,
                        0 AS undone, COALESCE(r.name, '') AS kiosk_name, COALESCE(r.location, '') AS location
                    FROM attendance a LEFT JOIN roster r ON r.kiosk = a.author
                    WHERE ?2 IS NULL OR a.campaign_id = ?2
                    ORDER BY hlc, author, seq
                    """,
                arguments: [checkOut, campaignID]
            )
            return rows.compactMap { row -> AuditEntry? in
                let author: Data = row["author"]
                let seq: Int64 = row["seq"]
                let hlc: Int64 = row["hlc"]
                guard let authorID = AuthorID(bytes: author) else { return nil }
                let reason: Int64? = row["reason"]
                let at: Int64? = row["at_millis"]
                let direction: Int64 = row["direction"]
                var entry = AuditEntry(
                    ref: DeltaRef(author: authorID, seq: UInt64(seq)),
                    atMillis: at ?? Int64(clamping: HLC(packed: UInt64(bitPattern: hlc)).physicalMillis),
                    kioskName: row["kiosk_name"],
                    zone: row["location"],
                    campaignID: row["campaign_id"],
                    attendeeKey: row["attendee_key"],
                    reason: reason.flatMap { DoorReason(rawValue: UInt8(clamping: $0)) },
                    count: row["count"],
                    undone: row["undone"]
                )
                entry.sessionID = row["session_id"]
                entry.leftSession = direction == Int64(AttendancePayload.Direction.left.rawValue)
                return entry
            }
        }
    }
}
