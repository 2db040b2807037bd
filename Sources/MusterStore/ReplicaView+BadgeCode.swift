import Foundation
import GRDB
import MusterCore
public import MusterRules

extension ReplicaView {
    /// Every replacement of one attendee's badge code (`muster badge replace`), on any kiosk, oldest
    /// first by (hlc, author, seq), with the desk's name and location from the roster.
    public func codeReplacements(campaignID: String, attendeeKey: String) throws -> [CodeReplacement] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT b.author, b.seq, b.hlc, b.code, COALESCE(r.name, '') AS kiosk_name,
                        COALESCE(r.location, '') AS location
                    FROM badge_code b LEFT JOIN roster r ON r.kiosk = b.author
                    WHERE b.campaign_id = ? AND b.attendee_key = ? ORDER BY b.hlc, b.author, b.seq
                    """
            ),
            arguments: [campaignID, attendeeKey]
        ).compactMap { row in
            let author: Data = row["author"]
            let seq: Int64 = row["seq"]
            let hlc: Int64 = row["hlc"]
            guard let authorID = AuthorID(bytes: author) else { return nil }
            return CodeReplacement(
                ref: DeltaRef(author: authorID, seq: UInt64(seq)),
                hlc: HLC(packed: UInt64(hlc)),
                code: row["code"],
                kioskName: row["kiosk_name"],
                location: row["location"]
            )
        }
    }

    /// The replacement that made `query` a dead code of `record` (``BadgeCodes/killed(_:listed:replacements:)``),
    /// or nil. An email is never a dead code: a replaced badge's holder is refused by its code, and
    /// the attendee is still found by their email at the staff desk.
    public func replacement(killing query: String, of record: AttendeeRecord) throws -> CodeReplacement? {
        guard EmailAddress.key(query) != record.key else { return nil }
        let replacements = try codeReplacements(campaignID: record.campaignID, attendeeKey: record.key)
        guard !replacements.isEmpty else { return nil }
        return BadgeCodes.killed(
            query,
            listed: [record.ticket].compactMap { $0 } + record.walkInTickets,
            replacements: replacements
        )
    }

    /// The code `record`'s badge should carry now (``BadgeCodes/current(listed:replacements:)``).
    public func currentBadgeCode(of record: AttendeeRecord) throws -> String {
        BadgeCodes.current(
            listed: record.badgeCode,
            replacements: try codeReplacements(campaignID: record.campaignID, attendeeKey: record.key)
        )
    }

    /// The one attendee a replacement's new code was issued to, or nil when it names none or several
    /// (two desks cut off from each other drawing the same 40 random bits).
    func replacedCodeOwner(campaignID: String, ticketKey: String) throws -> String? {
        let keys = try String.fetchAll(
            db.cachedStatement(
                sql: "SELECT DISTINCT attendee_key FROM badge_code WHERE campaign_id = ? AND code = ? LIMIT 2"
            ),
            arguments: [campaignID, ticketKey]
        )
        return keys.count == 1 ? keys[0] : nil
    }
}
