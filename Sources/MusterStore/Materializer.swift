import Foundation
import GRDB
import MusterCore
public import MusterRules

/// Folds one decoded delta into the materialized tables.
///
/// Every rule here is order independent, so the materialized state is a pure function of the *set*
/// of deltas, whatever order they arrive in:
/// - sets only grow (presence, notes, undos, walk-in tickets, printed badges, replaced codes) and are keyed by the delta's (author, seq);
/// - fields are last-writer-wins by the total order (hlc, author, seq);
/// - flags are ORed; the lock with the highest (version, hlc, author, seq) wins;
/// - undo is applied at query time (the `live_presence` view), so an undo may arrive before its target;
/// - a presence counts only in a (campaign, member status) some organizer lock named, also at query
///   time (`locked_campaign`), so a lock may arrive after the check-ins it allows;
/// - a check-out ends the arrivals it names (`presence_end`), whatever their timestamps, and each
///   named arrival ends its author's earlier arrivals of the same attendee (see ``DoorPolicy``);
/// - a walk-in's person fields never replace an import's: the import outranks every registration,
///   and an imported attendee is no walk-in and has no walk-in ticket (`applyRegistration` when the
///   import came first, the schema's `import_outranks_walk_in` trigger when it came second);
/// - every text field is stored sanitized and bounded (``StoredText``), a pure function of the delta.
///
/// Every statement is prepared once per connection (`cachedStatement`): catching up on 100,000
/// deltas runs the same few statements 100,000 times, and compiling them each time cost more than
/// executing them.
enum Materializer {
    /// - Parameters:
    ///   - envelope: the signed envelope `delta` was decoded from (its author's bytes, for the stamp).
    ///   - hash: the BLAKE2b-256 of the delta's envelope (what an undo names).
    ///   - hot: the writer's prepared per-delta statements (nil: GRDB's cache by SQL text).
    static func apply(_ delta: Delta, envelope: [UInt8], hash: [UInt8], db: Database, hot: HotStatements? = nil) throws
    {
        let stamp = Stamp(delta, envelope: envelope)
        let hash = Data(hash)
        switch delta.body {
        case .campaign(let p):
            try applyCampaign(p, stamp: stamp, db: db)
        case .attendee(let p):
            try applyAttendee(p, stamp: stamp, db: db, hot: hot)
        case .lock(let p):
            try applyLock(p, stamp: stamp, db: db)
        case .checkIn(let p):
            try insertPresence(p.presence, kind: .checkIn, stamp: stamp, hash: hash, db: db, hot: hot)
            try insertEnds(p.ends ?? [], stamp: stamp, db: db)
        case .checkOut(let p):
            try insertPresence(
                p.presence,
                kind: .checkOut,
                stamp: stamp,
                hash: hash,
                db: db,
                hot: hot,
                endsByTime: p.ends == nil
            )
            try insertEnds(p.ends ?? [], stamp: stamp, db: db)
        case .registration(let p):
            try applyRegistration(p, stamp: stamp, hash: hash, db: db)
        case .note(let p):
            try db.run(
                """
                INSERT OR IGNORE INTO note(author, seq, hlc, campaign_id, attendee_key, text)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, StoredText.note(p.text)]
            )
        case .undo(let p):
            try db.run(
                """
                INSERT OR IGNORE INTO undo(target_author, target_seq, author, seq, target_hash)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    Data(p.target.author.bytes), Int64(clamping: p.target.seq), stamp.author, stamp.seq,
                    p.targetHash.map { Data($0) },
                ]
            )
        case .scan(let p):
            try db.run(
                """
                INSERT OR IGNORE INTO scan(author, seq, hlc, campaign_id, attendee_key, reason, count, at_millis)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, Int64(p.reason.rawValue),
                    Int64(p.count), p.atMillis,
                ]
            )
        case .badge(let p):
            // A grow-only set keyed by (author, seq): every printed badge is kept, reprints included.
            try db.run(
                """
                INSERT OR IGNORE INTO badge(author, seq, hlc, campaign_id, attendee_key, reason)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, Int64(p.reason.rawValue)]
            )
        case .badgeCode(let p):
            // A grow-only set keyed by (author, seq); which code is valid is read from all of them
            // (``BadgeCodes``).
            try db.run(
                """
                INSERT OR IGNORE INTO badge_code(author, seq, hlc, campaign_id, attendee_key, code)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, p.code]
            )
        case .redemption(let p):
            // A grow-only set keyed by (author, seq): a double across a partition is kept and reported.
            try db.run(
                """
                INSERT OR IGNORE INTO redemption(author, seq, hlc, campaign_id, attendee_key, addon)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, p.addon]
            )
        case .session(let p):
            // Last-writer-wins by id; ``VenuePolicy/checkSession(_:author:byOrganizer:ref:)`` keeps each id to
            // one author's versions (the organizer's, or one kiosk's spot).
            try db.run(
                """
                INSERT INTO session(id, zone, code, removed, payload, lww_hlc, lww_author, lww_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET zone = excluded.zone, code = excluded.code, removed = excluded.removed,
                    payload = excluded.payload,
                    lww_hlc = excluded.lww_hlc, lww_author = excluded.lww_author, lww_seq = excluded.lww_seq
                WHERE (excluded.lww_hlc, excluded.lww_author, excluded.lww_seq)
                    > (session.lww_hlc, session.lww_author, session.lww_seq)
                """,
                [
                    p.id, p.zone, p.code, p.removed, Data(DeltaBody.session(p).encode()), stamp.hlc, stamp.author,
                    stamp.seq,
                ]
            )
        case .attendance(let p):
            try db.run(
                """
                INSERT OR IGNORE INTO attendance(author, seq, hlc, campaign_id, attendee_key, session_id, direction)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    stamp.author, stamp.seq, stamp.hlc, p.campaignID, p.attendeeKey, p.sessionID,
                    Int64(p.direction.rawValue),
                ]
            )
        case .sessionRegistration(let p):
            for key in p.attendeeKeys {
                try db.run(
                    "INSERT OR IGNORE INTO session_registration(session_id, campaign_id, attendee_key) VALUES (?, ?, ?)",
                    [p.sessionID, p.campaignID, key]
                )
            }
        case .enroll, .revoke:
            break  // the roster is local knowledge, kept by Replica+Roster, not part of the digest
        }
    }

    /// The tables derived from the log; ``rebuild(db:)`` empties and refills them.
    static let derivedTables = [
        "campaign", "attendee", "walk_in_ticket", "presence", "note", "undo", "lock_state", "locked_campaign",
        "presence_end", "scan", "badge", "badge_code", "redemption", "session", "attendance", "session_registration",
    ]

    /// Recomputes the materialized state from the log, after a revocation removed deltas from it.
    /// The state is a pure function of the set of deltas, so this gives what every other replica
    /// holding the same log has.
    static func rebuild(db: Database) throws {
        // An earlier migration's rebuild runs before later migrations created their tables (the
        // `badge` table of v5 during v4's rebuild); a log that old holds no delta of theirs.
        for table in derivedTables where try db.tableExists(table) { try db.execute(sql: "DELETE FROM \(table)") }
        let rows = try Row.fetchCursor(db, sql: "SELECT envelope, signature FROM delta ORDER BY author, seq")
        while let row = try rows.next() {
            let signed = try SignedDelta(row: row)
            try apply(try signed.decode(), envelope: signed.envelope, hash: signed.envelopeHash, db: db)
        }
    }

    private static func applyCampaign(_ p: CampaignPayload, stamp: Stamp, db: Database) throws {
        let name = StoredText.field(p.name)
        try db.run(
            """
            INSERT INTO campaign(id, name, name_key, lww_hlc, lww_author, lww_seq) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key,
                lww_hlc = excluded.lww_hlc, lww_author = excluded.lww_author, lww_seq = excluded.lww_seq
            WHERE (excluded.lww_hlc, excluded.lww_author, excluded.lww_seq)
                > (campaign.lww_hlc, campaign.lww_author, campaign.lww_seq)
            """,
            [p.campaignID, name, name.lowercased(), stamp.hlc, stamp.author, stamp.seq]
        )
    }

    /// One statement (``HotStatements/Kind/upsertAttendee``).
    private static func applyAttendee(_ p: AttendeePayload, stamp: Stamp, db: Database, hot: HotStatements?) throws {
        try HotStatements.run(.internCampaign, hot, db: db) { row in row.text(p.campaignID) }
        try HotStatements.run(.upsertAttendee, hot, db: db) { row in
            let firstName = StoredText.field(p.firstName)
            let lastName = StoredText.field(p.lastName)
            let ticket = p.ticket.map(StoredText.field)
            row.text(p.campaignID)
            row.text(p.key)
            row.text(storedEmail(p.email, key: p.key))
            row.text(firstName)
            row.text(lastName)
            row.text(StoredText.field(p.company))
            row.int(stamp.hlc)
            row.blob(stamp.author)
            row.int(stamp.seq)
            row.text(ticket)
            row.text(ticket.map(TicketCode.normalize))
            row.text(p.salesforceID.map(StoredText.field))
            row.text(p.status.map(StoredText.field))
            row.bool(p.admitted)
            row.text(NameKey.fold(firstName))
            row.text(NameKey.fold(lastName))
            if let details = blob(p.details) { row.blob(details) } else { row.null() }
            row.text(p.details?.order.map(TicketCode.normalize))
        }
    }

    /// The person fields are set only while no import names the attendee (see `updatePerson`);
    /// ``VenuePolicy/checkMeaning(_:)`` has already made sure the key is the registration's own email.
    ///
    /// The walk-in flag and ticket too: a registration for someone the organizer imported checks her
    /// in (any kiosk may) but mints no ticket code that would find her at every door. An import that
    /// arrives later takes both back (the schema's `import_outranks_walk_in` trigger).
    private static func applyRegistration(_ p: RegistrationPayload, stamp: Stamp, hash: Data, db: Database) throws {
        let key = p.presence.attendeeKey
        let number = HotStatements.Kind.campaignNumber("?")
        try ensureAttendee(campaignID: p.presence.campaignID, key: key, db: db)
        try updatePerson(from: p, stamp: stamp, db: db)
        try db.run(
            "UPDATE attendee SET walk_in = 1 WHERE campaign = \(number) AND key = ? AND imported = 0",
            [p.presence.campaignID, key]
        )
        try db.run(
            """
            INSERT OR IGNORE INTO walk_in_ticket(campaign_id, ticket_key, attendee_key, author, seq)
            SELECT ?, ?, key, ?, ? FROM attendee WHERE campaign = \(number) AND key = ? AND imported = 0
            """,
            [
                p.presence.campaignID, TicketCode.normalize(StoredText.field(p.ticket)), stamp.author, stamp.seq,
                p.presence.campaignID, key,
            ]
        )
        try insertPresence(p.presence, kind: .registration, stamp: stamp, hash: hash, db: db)
    }

    /// The email as the attendee row stores it: `nil` where it is the key itself, as it is for most
    /// people (the key is the email, folded), so the row does not hold the same 20-odd bytes twice.
    /// Every reader of `attendee.email` takes `COALESCE(email, key)`.
    static func storedEmail(_ email: String, key: String) -> String? {
        let stored = StoredText.field(email)
        return stored == key ? nil : stored
    }

    /// Creates the attendee row with neutral values; every field is then set by an LWW update, so
    /// the row's content never depends on which delta happened to create it.
    private static func ensureAttendee(campaignID: String, key: String, db: Database) throws {
        try db.run(HotStatements.Kind.internCampaignSQL, [campaignID])
        try db.run(
            """
            INSERT OR IGNORE INTO attendee(campaign, key, email, first_name, last_name, company,
                p_hlc, p_author, p_seq, admitted, imported, walk_in)
            VALUES (\(HotStatements.Kind.campaignNumber("?")), ?, '', '', '', '', -1, x'', 0, 1, 0, 0)
            """,
            [campaignID, key]
        )
    }

    /// Last-writer-wins among walk-ins only: once an import names the attendee (`imported`), its
    /// fields stand and no registration replaces them, in whatever order the two arrive (the import's
    /// upsert takes the person fields from any row no import had set).
    private static func updatePerson(from p: RegistrationPayload, stamp: Stamp, db: Database) throws {
        let firstName = StoredText.field(p.firstName)
        let lastName = StoredText.field(p.lastName)
        try db.run(
            """
            UPDATE attendee SET email = ?, first_name = ?, last_name = ?, company = ?,
                first_key = ?, last_key = ?, p_hlc = ?, p_author = ?, p_seq = ?
            WHERE campaign = \(HotStatements.Kind.campaignNumber("?")) AND key = ? AND imported = 0
                AND (p_hlc, p_author, p_seq) < (?, ?, ?)
            """,
            [
                storedEmail(p.email, key: p.presence.attendeeKey), firstName, lastName, StoredText.field(p.company),
                NameKey.fold(firstName), NameKey.fold(lastName), stamp.hlc, stamp.author, stamp.seq,
                p.presence.campaignID, p.presence.attendeeKey,
                stamp.hlc, stamp.author, stamp.seq,
            ]
        )
    }

    private static func insertPresence(
        _ p: PresencePayload,
        kind: DeltaKind,
        stamp: Stamp,
        hash: Data,
        db: Database,
        hot: HotStatements? = nil,
        endsByTime: Bool = false
    ) throws {
        // The kiosk name and location are the author's certificate's, joined at read time
        // (`live_presence`): what the payload claims is not stored.
        try HotStatements.run(.insertPresence, hot, db: db) { row in
            row.blob(stamp.author)
            row.int(stamp.seq)
            row.int(Int64(kind.rawValue))
            row.int(stamp.hlc)
            row.text(p.campaignID)
            row.text(p.attendeeKey)
            row.text("")
            row.text("")
            row.text(StoredText.field(p.memberStatus))
            row.bool(endsByTime)
            row.blob(hash)
        }
    }

    /// The arrivals a check-out or an exclusive zone's check-in ends (see the `open_arrival` view).
    private static func insertEnds(_ ends: [DeltaRef], stamp: Stamp, db: Database) throws {
        for target in ends {
            try db.run(
                "INSERT OR IGNORE INTO presence_end(author, seq, target_author, target_seq) VALUES (?, ?, ?, ?)",
                [stamp.author, stamp.seq, Data(target.author.bytes), Int64(clamping: target.seq)]
            )
        }
    }

    /// A value as a column stores it (`lock_state.rules`, `attendee.details`): its versioned
    /// encoding, nil for none.
    static func blob(_ value: (some ByteCodable)?) -> Data? {
        guard let value else { return nil }
        var writer = ByteWriter()
        value.encode(into: &writer)
        return Data(writer.bytes)
    }

    /// Reads such a column back; a blob this version cannot read counts as none (it was written by
    /// this code from a verified delta, so that happens only after a downgrade).
    static func decoded<Value: ByteCodable>(_ blob: Data?) -> Value? {
        guard let blob else { return nil }
        var reader = ByteReader(Array(blob))
        return try? Value(from: &reader)
    }

    private static func applyLock(_ p: LockPayload, stamp: Stamp, db: Database) throws {
        try db.run(
            """
            INSERT INTO lock_state(
                id, version, campaign_id, check_in_status, opens_at, closes_at, hlc, author, seq, rules, language)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET version = excluded.version, campaign_id = excluded.campaign_id,
                check_in_status = excluded.check_in_status, opens_at = excluded.opens_at, rules = excluded.rules,
                closes_at = excluded.closes_at, hlc = excluded.hlc, author = excluded.author, seq = excluded.seq,
                language = excluded.language
            WHERE (excluded.version, excluded.hlc, excluded.author, excluded.seq)
                > (lock_state.version, lock_state.hlc, lock_state.author, lock_state.seq)
            """,
            [
                Int64(clamping: p.version), p.campaignID, StoredText.field(p.checkInStatus), p.opensAtMillis,
                p.closesAtMillis, stamp.hlc, stamp.author, stamp.seq, blob(p.rules), p.language,
            ]
        )
        if let campaignID = p.campaignID {
            try db.run(
                "INSERT OR IGNORE INTO locked_campaign(campaign_id, check_in_status) VALUES (?, ?)",
                [campaignID, StoredText.field(p.checkInStatus)]
            )
        }
    }
}
