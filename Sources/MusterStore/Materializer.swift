import Foundation
import GRDB
import MusterCore

/// Folds one decoded delta into the materialized tables.
///
/// Every rule here is order independent, so the materialized state is a pure function of the *set*
/// of deltas, whatever order they arrive in:
/// - sets only grow (presence, notes, undos, walk-in tickets) and are keyed by the delta's (author, seq);
/// - fields are last-writer-wins by the total order (hlc, author, seq);
/// - flags are ORed; the lock with the highest (version, hlc, author, seq) wins;
/// - undo is applied at query time (the `live_presence` view), so an undo may arrive before its target.
///
/// Every statement is prepared once per connection (`cachedStatement`): catching up on 100,000
/// deltas runs the same few statements 100,000 times, and compiling them each time cost more than
/// executing them.
enum Materializer {
    static func apply(_ delta: Delta, db: Database) throws {
        let stamp = Stamp(delta)
        switch delta.body {
        case .campaign(let p):
            try applyCampaign(p, stamp: stamp, db: db)
        case .attendee(let p):
            try applyAttendee(p, stamp: stamp, db: db)
        case .lock(let p):
            try applyLock(p, stamp: stamp, db: db)
        case .checkIn(let p):
            try insertPresence(p.presence, kind: .checkIn, stamp: stamp, db: db)
        case .checkOut(let p):
            try insertPresence(p.presence, kind: .checkOut, stamp: stamp, db: db)
        case .registration(let p):
            try applyRegistration(p, stamp: stamp, db: db)
        case .note(let p):
            try db.run(
                """
                    INSERT OR IGNORE INTO note(author, seq, hlc, campaign_id, attendee_key, text)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                [stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, p.text])
        case .undo(let p):
            try db.run(
                "INSERT OR IGNORE INTO undo(target_author, target_seq, author, seq) VALUES (?, ?, ?, ?)",
                [Data(p.target.author.bytes), Int64(p.target.seq), stamp.author, stamp.seq])
        case .enroll, .revoke:
            break  // the roster is local knowledge, kept by Replica+Roster, not part of the digest
        }
    }

    /// The tables derived from the log; ``rebuild(db:)`` empties and refills them.
    static let derivedTables = ["campaign", "attendee", "walk_in_ticket", "presence", "note", "undo", "lock_state"]

    /// Recomputes the materialized state from the log, after a revocation removed deltas from it.
    /// The state is a pure function of the set of deltas, so this gives what every other replica
    /// holding the same log has.
    static func rebuild(db: Database) throws {
        for table in derivedTables { try db.execute(sql: "DELETE FROM \(table)") }
        let rows = try Row.fetchCursor(db, sql: "SELECT envelope, signature FROM delta ORDER BY author, seq")
        while let row = try rows.next() {
            try apply(try SignedDelta(row: row).decode(), db: db)
        }
    }

    private static func applyCampaign(_ p: CampaignPayload, stamp: Stamp, db: Database) throws {
        try db.run(
            """
            INSERT INTO campaign(id, name, name_key, lww_hlc, lww_author, lww_seq) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
                lww_hlc = excluded.lww_hlc, lww_author = excluded.lww_author, lww_seq = excluded.lww_seq
            WHERE (excluded.lww_hlc, excluded.lww_author, excluded.lww_seq)
                > (campaign.lww_hlc, campaign.lww_author, campaign.lww_seq)
            """,
            [p.campaignID, p.name, p.name.lowercased(), stamp.hlc, stamp.author, stamp.seq])
    }

    private static let attendeeUpsert = """
        INSERT INTO attendee(campaign_id, key, email, first_name, last_name, company, p_hlc, p_author, p_seq,
            ticket, ticket_key, salesforce_id, status, admitted, imported, i_hlc, i_author, i_seq, walk_in,
            first_key, last_key)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 1, ?7, ?8, ?9, 0, ?15, ?16)
        ON CONFLICT(campaign_id, key) DO UPDATE SET
            email = iif(p_newer, excluded.email, email),
            first_name = iif(p_newer, excluded.first_name, first_name),
            last_name = iif(p_newer, excluded.last_name, last_name),
            first_key = iif(p_newer, excluded.first_key, first_key),
            last_key = iif(p_newer, excluded.last_key, last_key),
            company = iif(p_newer, excluded.company, company),
            p_hlc = iif(p_newer, excluded.p_hlc, p_hlc),
            p_author = iif(p_newer, excluded.p_author, p_author),
            p_seq = iif(p_newer, excluded.p_seq, p_seq),
            ticket = iif(i_newer, excluded.ticket, ticket),
            ticket_key = iif(i_newer, excluded.ticket_key, ticket_key),
            salesforce_id = iif(i_newer, excluded.salesforce_id, salesforce_id),
            status = iif(i_newer, excluded.status, status),
            admitted = iif(i_newer, excluded.admitted, admitted),
            imported = iif(i_newer, 1, imported),
            i_hlc = iif(i_newer, excluded.i_hlc, i_hlc),
            i_author = iif(i_newer, excluded.i_author, i_author),
            i_seq = iif(i_newer, excluded.i_seq, i_seq)
        """
        .replacingOccurrences(
            of: "p_newer",
            with: "(attendee.p_hlc, attendee.p_author, attendee.p_seq) < (excluded.p_hlc, excluded.p_author, excluded.p_seq)")
        .replacingOccurrences(
            of: "i_newer",
            with: """
                (attendee.i_hlc IS NULL
                    OR (attendee.i_hlc, attendee.i_author, attendee.i_seq) < (excluded.i_hlc, excluded.i_author, excluded.i_seq))
                """)

    /// One statement: a new attendee row is inserted with every field, an existing one has its
    /// person fields and its import fields each replaced only by a newer stamp (the same
    /// last-writer-wins rules as ``updatePerson`` and as a row made by ``ensureAttendee``).
    private static func applyAttendee(_ p: AttendeePayload, stamp: Stamp, db: Database) throws {
        try db.run(
            attendeeUpsert,
            [
                p.campaignID, p.key, p.email, p.firstName, p.lastName, p.company, stamp.hlc, stamp.author,
                stamp.seq, p.ticket, p.ticket.map(TicketCode.normalize), p.salesforceID, p.status, p.admitted,
                NameKey.fold(p.firstName), NameKey.fold(p.lastName),
            ])
    }

    private static func applyRegistration(_ p: RegistrationPayload, stamp: Stamp, db: Database) throws {
        let key = p.presence.attendeeKey
        try ensureAttendee(campaignID: p.presence.campaignID, key: key, db: db)
        try updatePerson(
            campaignID: p.presence.campaignID, key: key, email: p.email, firstName: p.firstName,
            lastName: p.lastName, company: p.company, stamp: stamp, db: db)
        try db.run(
            "UPDATE attendee SET walk_in = 1 WHERE campaign_id = ? AND key = ?", [p.presence.campaignID, key])
        try db.run(
            """
            INSERT OR IGNORE INTO walk_in_ticket(campaign_id, ticket_key, attendee_key, author, seq)
            VALUES (?, ?, ?, ?, ?)
            """,
            [p.presence.campaignID, TicketCode.normalize(p.ticket), key, stamp.author, stamp.seq])
        try insertPresence(p.presence, kind: .registration, stamp: stamp, db: db)
    }

    /// Creates the attendee row with neutral values; every field is then set by an LWW update, so
    /// the row's content never depends on which delta happened to create it.
    private static func ensureAttendee(campaignID: String, key: String, db: Database) throws {
        try db.run(
            """
            INSERT OR IGNORE INTO attendee(campaign_id, key, email, first_name, last_name, company,
                p_hlc, p_author, p_seq, admitted, imported, walk_in)
            VALUES (?, ?, '', '', '', '', -1, x'', 0, 1, 0, 0)
            """,
            [campaignID, key])
    }

    private static func updatePerson(
        campaignID: String, key: String, email: String, firstName: String, lastName: String, company: String,
        stamp: Stamp, db: Database
    ) throws {
        try db.run(
            """
            UPDATE attendee SET email = ?, first_name = ?, last_name = ?, company = ?,
                first_key = ?, last_key = ?, p_hlc = ?, p_author = ?, p_seq = ?
            WHERE campaign_id = ? AND key = ? AND (p_hlc, p_author, p_seq) < (?, ?, ?)
            """,
            [
                email, firstName, lastName, company, NameKey.fold(firstName), NameKey.fold(lastName), stamp.hlc, stamp.author, stamp.seq, campaignID, key,
                stamp.hlc, stamp.author, stamp.seq,
            ])
    }

    private static func insertPresence(_ p: PresencePayload, kind: DeltaKind, stamp: Stamp, db: Database) throws {
        try db.run(
            """
            INSERT OR IGNORE INTO presence(author, seq, kind, hlc, campaign_id, attendee_key,
                kiosk_name, location, member_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                stamp.author, stamp.seq, Int64(kind.rawValue), stamp.hlc, p.campaignID, p.attendeeKey,
                p.kioskName, p.location, p.memberStatus,
            ])
    }

    private static func applyLock(_ p: LockPayload, stamp: Stamp, db: Database) throws {
        try db.run(
            """
                INSERT INTO lock_state(id, version, campaign_id, check_in_status, opens_at, closes_at, hlc, author, seq)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET version = excluded.version, campaign_id = excluded.campaign_id,
                    check_in_status = excluded.check_in_status, opens_at = excluded.opens_at,
                    closes_at = excluded.closes_at, hlc = excluded.hlc, author = excluded.author, seq = excluded.seq
                WHERE (excluded.version, excluded.hlc, excluded.author, excluded.seq)
                    > (lock_state.version, lock_state.hlc, lock_state.author, lock_state.seq)
                """,
            [
                Int64(clamping: p.version), p.campaignID, p.checkInStatus, p.opensAtMillis, p.closesAtMillis,
                stamp.hlc, stamp.author, stamp.seq,
            ])
    }
}

/// The total order for last-writer-wins: (hlc, author, seq), compared the same way in Swift and SQL
/// (SQLite compares BLOBs with memcmp, which is the bytewise order of ``AuthorID``).
struct Stamp: Comparable {
    let hlc: Int64
    let author: Data
    let seq: Int64

    init(_ delta: Delta) {
        hlc = Int64(delta.hlc.packed)
        author = Data(delta.author.bytes)
        seq = Int64(clamping: delta.seq)
    }

    init(row: Row, prefix: String) {
        hlc = row[prefix + "hlc"]
        author = row[prefix + "author"]
        seq = row[prefix + "seq"]
    }

    static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        if lhs.hlc != rhs.hlc { return lhs.hlc < rhs.hlc }
        if lhs.author != rhs.author { return lhs.author.lexicographicallyPrecedes(rhs.author) }
        return lhs.seq < rhs.seq
    }
}
