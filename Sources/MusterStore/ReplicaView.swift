import Foundation
import GRDB
public import MusterCore
public import MusterRules

/// Typed reads of the materialized state over one open database connection.
///
/// Used by the read APIs of ``Replica`` and, inside a write transaction, by local writes that must
/// decide on a consistent snapshot (for example "is this person already checked in?").
public struct ReplicaView {
    let db: Database

    init(_ db: Database) { self.db = db }

    /// The first row of `statement`, read in place by `read`, by position: a fetched row copies every
    /// value and column name first, and a column looked up by name compares names lowercased. The
    /// statement is then run to its end, so it holds nothing open. Every door scan reads the lock and
    /// the person this way.
    private func first<Value>(
        _ statement: Statement,
        arguments: StatementArguments = StatementArguments(),
        _ read: (Row) throws -> Value
    ) throws -> Value? {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        guard let row = try rows.next() else { return nil }
        let value = try read(row)
        while try rows.next() != nil {}
        return value
    }

    public func lock() throws -> LockState? {
        try first(
            db.cachedStatement(
                sql: """
                    SELECT l.version, l.campaign_id, c.name, l.check_in_status, l.opens_at, l.closes_at, l.rules,
                        l.language
                    FROM lock_state l LEFT JOIN campaign c ON c.id = l.campaign_id WHERE l.id = 1
                    """
            )
        ) { row in
            let version: Int64 = row[0]
            return LockState(
                version: UInt64(version),
                campaignID: row[1],
                campaignName: row[2],
                checkInStatus: row[3],
                opensAtMillis: row[4],
                closesAtMillis: row[5],
                rules: Materializer.decoded(row[6]),
                language: row[7]
            )
        }
    }

    public func campaigns(matching text: String? = nil) throws -> [CampaignRecord] {
        let pattern = text.map { "%" + Self.escapeLike($0.lowercased()) + "%" } ?? "%"
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT c.id, c.name,
                        (SELECT COUNT(*) FROM attendee_row a WHERE a.campaign_id = c.id) AS attendees,
                        (SELECT COUNT(DISTINCT p.attendee_key) FROM live_presence p
                            WHERE p.campaign_id = c.id AND p.kind != ?) AS checked_in
                    FROM campaign c WHERE c.name_key LIKE ? ESCAPE '\\' ORDER BY c.name_key, c.id
                    """
            ),
            arguments: [Int64(DeltaKind.checkOut.rawValue), pattern]
        ).map { row in
            CampaignRecord(id: row["id"], name: row["name"], attendees: row["attendees"], checkedIn: row["checked_in"])
        }
    }

    /// The campaign with exactly this name (case-insensitive), if one exists.
    public func campaign(named name: String) throws -> CampaignRecord? {
        try campaigns(matching: nil).first { $0.name.lowercased() == name.lowercased() }
    }

    /// Exact match on normalized email or ticket code; never a prefix or pattern, so the kiosk
    /// cannot be used to browse the list.
    ///
    /// A walk-in ticket code that two registrations minted for two people finds nobody: any enrolled kiosk
    /// may register anyone, and picking one of them (the lowest key, as before) let a kiosk that lies take
    /// a walk-in's ticket, so that her ticket at the door checked in someone else. Staff find each by email.
    public func lookup(campaignID: String, query: String) throws -> AttendeeRecord? {
        let emailKey = EmailAddress.key(query)
        if !emailKey.isEmpty, let record = try attendee(campaignID: campaignID, key: emailKey) { return record }
        let ticketKey = TicketCode.normalize(query)
        guard !ticketKey.isEmpty else { return nil }
        let key =
            try String.fetchOne(
                db.cachedStatement(
                    sql: "SELECT key FROM attendee_row WHERE campaign_id = ? AND ticket_key = ? ORDER BY key LIMIT 1"
                ),
                arguments: [campaignID, ticketKey]
            )
            ?? onlyWalkIn(campaignID: campaignID, ticketKey: ticketKey)
            ?? replacedCodeOwner(campaignID: campaignID, ticketKey: ticketKey)
        return try key.flatMap { try attendee(campaignID: campaignID, key: $0) }
    }

    /// The one walk-in a ticket code was minted for, or nil when it names none or several.
    private func onlyWalkIn(campaignID: String, ticketKey: String) throws -> String? {
        let keys = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT attendee_key FROM walk_in_ticket WHERE campaign_id = ? AND ticket_key = ?
                    LIMIT 2
                    """
            ),
            arguments: [campaignID, ticketKey]
        )
        return keys.count == 1 ? keys[0] : nil
    }

    /// The organizer's and the staff desk's search by name: attendees whose first or last name starts
    /// with one word of `text` and whose name has a word starting with each other word, case,
    /// accents and width ignored, ordered by last name, at most `limit`.
    ///
    /// The longest word is looked up by range on the indexed `first_key` / `last_key`, so the cost
    /// grows with the matches, not with the campaign. Never used by the kiosk screen, which only
    /// looks up exact emails and ticket codes so that nobody can browse the list.
    public func search(campaignID: String, name text: String, limit: Int) throws -> [AttendeeRecord] {
        let words = NameKey.fold(text).split(separator: " ").map(String.init)
        guard let anchor = words.max(by: { $0.count < $1.count }), limit > 0 else { return [] }
        let others = words.filter { $0 != anchor }
        // Enough candidates to fill `limit` after filtering on the other words, but bounded.
        let scan = others.isEmpty ? limit : max(limit, Self.searchScanLimit)
        let candidates = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT key, first_key, last_key FROM attendee_row
                        WHERE campaign_id = ?1 AND last_key >= ?2 AND last_key < ?3
                    UNION
                    SELECT key, first_key, last_key FROM attendee_row
                        WHERE campaign_id = ?1 AND first_key >= ?2 AND first_key < ?3
                    ORDER BY 3, 2, 1 LIMIT ?4
                    """
            ),
            arguments: [campaignID, anchor, NameKey.upperBound(anchor), scan]
        )
        var keys: [String] = []
        for row in candidates where keys.count < limit {
            let nameWords = ((row["first_key"] as String) + " " + (row["last_key"] as String)).split(separator: " ")
            if others.allSatisfy({ word in nameWords.contains { $0.hasPrefix(word) } }) { keys.append(row["key"]) }
        }
        return try keys.compactMap { try attendee(campaignID: campaignID, key: $0) }
    }

    /// How many rows a multi-word search reads before filtering on the words after the first.
    static let searchScanLimit = 2_000

    public func attendee(campaignID: String, key: String) throws -> AttendeeRecord? {
        // The row's values are taken before the record's own queries run.
        guard
            let listed = try first(
                db.cachedStatement(sql: Self.attendeeByKeySQL),
                arguments: [campaignID, key],
                Listed.init
            )
        else { return nil }
        return try record(listed)
    }

    /// Everyone in a campaign (organizer view), ordered by name.
    public func attendees(campaignID: String, checkedInOnly: Bool = false) throws -> [AttendeeRecord] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(Self.recordColumns) FROM attendee_row WHERE campaign_id = ?
                    ORDER BY last_name, first_name, key
                    """
            ),
            arguments: [campaignID]
        ).map { try record(Listed($0)) }.filter { !checkedInOnly || $0.isCheckedIn }
    }

    /// The columns ``record(_:)`` reads, by position: a column looked up by name compares names
    /// case-insensitively, each lowercased, which was a tenth of a door scan's instructions.
    private static let recordColumns = """
        campaign_id, key, email, first_name, last_name, company, ticket, salesforce_id, status, admitted, \
        imported, walk_in, details
        """
    /// One attendee by key, built once (every door scan asks).
    private static let attendeeByKeySQL =
        "SELECT \(recordColumns) FROM attendee_row WHERE campaign_id = ? AND key = ?"

    /// What a row of ``recordColumns`` holds, read by position.
    private struct Listed {
        let campaignID: String
        let key: String
        let email: String?
        let firstName: String
        let lastName: String
        let company: String
        let ticket: String?
        let salesforceID: String?
        let status: String?
        let admitted: Bool
        let imported: Bool
        let walkIn: Bool
        let details: Data?

        init(_ row: Row) {
            campaignID = row[0]
            key = row[1]
            email = row[2]
            firstName = row[3]
            lastName = row[4]
            company = row[5]
            ticket = row[6]
            salesforceID = row[7]
            status = row[8]
            admitted = row[9]
            imported = row[10]
            walkIn = row[11]
            details = row[12]
        }
    }

    /// An attendee as listed, with what other tables hold of them.
    private func record(_ listed: Listed) throws -> AttendeeRecord {
        let campaignID = listed.campaignID
        let key = listed.key
        let presence = try presences(campaignID: campaignID, attendeeKey: key)
        let imported = listed.imported
        // An imported attendee has no walk-in ticket (``Materializer``: the import outranks every
        // registration), so the door's scan of a listed person does not ask.
        let tickets =
            imported
            ? []
            : try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT ticket_key FROM walk_in_ticket
                        WHERE campaign_id = ? AND attendee_key = ? ORDER BY ticket_key
                        """
                ),
                arguments: [campaignID, key]
            )
        return AttendeeRecord(
            campaignID: campaignID,
            key: key,
            email: listed.email ?? key,
            firstName: listed.firstName,
            lastName: listed.lastName,
            company: listed.company,
            ticket: listed.ticket,
            walkInTickets: tickets,
            salesforceID: listed.salesforceID,
            status: listed.status,
            admitted: listed.admitted,
            imported: imported,
            walkIn: listed.walkIn,
            details: Materializer.decoded(listed.details),
            firstArrival: presence.first { $0.isArrival },
            latest: presence.last,
            openArrivals: try openArrivals(campaignID: campaignID, attendeeKey: key),
            arrivals: presence.filter(\.isArrival)
        )
    }

    /// Live arrivals of one attendee that no live check-out ended (see the `open_arrival` view),
    /// oldest first: what a check-out names, and why someone is inside.
    public func openArrivals(campaignID: String, attendeeKey: String) throws -> [PresenceRecord] {
        try presences(Self.openArrivalsSQL, campaignID: campaignID, attendeeKey: attendeeKey)
    }

    /// Live (not undone) presences of one attendee, oldest first by (hlc, author, seq).
    public func presences(campaignID: String, attendeeKey: String) throws -> [PresenceRecord] {
        try presences(Self.livePresencesSQL, campaignID: campaignID, attendeeKey: attendeeKey)
    }

    /// One attendee's presences in the schema's `live_presence` and `open_arrival` views, oldest
    /// first; each text is built once, not on every door scan.
    private static let livePresencesSQL = presencesSQL(in: "live_presence")
    private static let openArrivalsSQL = presencesSQL(in: "open_arrival")

    private static func presencesSQL(in view: String) -> String {
        """
        SELECT \(presenceColumns) FROM \(view) WHERE campaign_id = ? AND attendee_key = ?
        ORDER BY hlc, author, seq
        """
    }

    /// One attendee's presences by `sql` (``livePresencesSQL`` or ``openArrivalsSQL``).
    private func presences(_ sql: String, campaignID: String, attendeeKey: String) throws -> [PresenceRecord] {
        // Each row read in place from the statement, not copied first.
        try Array(
            Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [campaignID, attendeeKey]).compactMap(
                Self.presence
            )
        )
    }

    /// The columns ``presence(_:)`` reads, by position, first in every query it reads (a column
    /// looked up by name compares names case-insensitively, each lowercased).
    static let presenceColumns = "author, seq, kind, hlc, kiosk_name, location, member_status, hash"

    /// A presence from a row that begins with ``presenceColumns``.
    static func presence(_ row: Row) -> PresenceRecord? {
        let author: Data = row[0]
        let seq: Int64 = row[1]
        let kind: Int64 = row[2]
        let hlc: Int64 = row[3]
        let hash: Data? = row[7]
        guard let authorID = AuthorID(bytes: author), let deltaKind = DeltaKind(rawValue: UInt8(clamping: kind))
        else { return nil }
        return PresenceRecord(
            ref: DeltaRef(author: authorID, seq: UInt64(seq)),
            kind: deltaKind,
            hlc: HLC(packed: UInt64(hlc)),
            kioskName: row[4],
            location: row[5],
            memberStatus: row[6],
            hash: hash.flatMap { $0.count == Delta.hashByteCount ? Array($0) : nil }
        )
    }

    /// Whether a delta exists in the log (e.g. the target of an undo).
    public func presence(_ ref: DeltaRef) throws -> PresenceRecord? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT p.author, p.seq, p.kind, p.hlc, COALESCE(r.name, '') AS kiosk_name,
                        COALESCE(r.location, '') AS location, p.member_status, p.hash
                    FROM presence p LEFT JOIN roster r ON r.kiosk = p.author WHERE p.author = ? AND p.seq = ?
                    """
            ),
            arguments: [Data(ref.author.bytes), Int64(clamping: ref.seq)]
        ).flatMap(Self.presence)
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}

extension Replica {
    /// Runs typed reads on a consistent snapshot.
    public func view<T>(_ body: (ReplicaView) throws -> T) throws(ReplicaError) -> T {
        try read { db in try body(ReplicaView(db)) }
    }
}
