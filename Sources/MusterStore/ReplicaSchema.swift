import GRDB
public import MusterRules

/// The replica's tables, created by named migrations.
///
/// Two halves: the raw signed log (`delta`, `head`, `fork_evidence`), which is the truth, and the
/// materialized tables below it, which are a pure function of the set of deltas in the log and are
/// what lookups and the digest read.
enum ReplicaSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-log-and-state") { db in
            try db.execute(
                sql: """
                    CREATE TABLE delta (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        hash BLOB NOT NULL, envelope BLOB NOT NULL, signature BLOB NOT NULL,
                        received_at INTEGER NOT NULL, sig_verified INTEGER NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE TABLE head (
                        author BLOB PRIMARY KEY NOT NULL, seq INTEGER NOT NULL, hash BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE fork_evidence (
                        id INTEGER PRIMARY KEY, author BLOB NOT NULL, seq INTEGER NOT NULL,
                        envelope BLOB NOT NULL, signature BLOB NOT NULL, seen_at INTEGER NOT NULL);
                    CREATE TABLE clock_warning (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, ahead_ms INTEGER NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;

                    CREATE TABLE campaign (
                        id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL,
                        lww_hlc INTEGER NOT NULL, lww_author BLOB NOT NULL, lww_seq INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE INDEX campaign_name ON campaign(name_key);

                    CREATE TABLE attendee (
                        campaign_id TEXT NOT NULL, key TEXT NOT NULL,
                        email TEXT NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL, company TEXT NOT NULL,
                        p_hlc INTEGER NOT NULL, p_author BLOB NOT NULL, p_seq INTEGER NOT NULL,
                        ticket TEXT, ticket_key TEXT, salesforce_id TEXT, status TEXT, admitted INTEGER NOT NULL,
                        imported INTEGER NOT NULL, i_hlc INTEGER, i_author BLOB, i_seq INTEGER,
                        walk_in INTEGER NOT NULL,
                        PRIMARY KEY (campaign_id, key)) WITHOUT ROWID;
                    CREATE INDEX attendee_ticket ON attendee(campaign_id, ticket_key);

                    CREATE TABLE walk_in_ticket (
                        campaign_id TEXT NOT NULL, ticket_key TEXT NOT NULL, attendee_key TEXT NOT NULL,
                        author BLOB NOT NULL, seq INTEGER NOT NULL,
                        PRIMARY KEY (campaign_id, ticket_key, author, seq)) WITHOUT ROWID;

                    CREATE TABLE presence (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL,
                        kiosk_name TEXT NOT NULL, location TEXT NOT NULL, member_status TEXT NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX presence_attendee ON presence(campaign_id, attendee_key, hlc);

                    CREATE TABLE note (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, text TEXT NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX note_attendee ON note(campaign_id, attendee_key);

                    CREATE TABLE undo (
                        target_author BLOB NOT NULL, target_seq INTEGER NOT NULL,
                        author BLOB NOT NULL, seq INTEGER NOT NULL,
                        PRIMARY KEY (target_author, target_seq, author, seq)) WITHOUT ROWID;

                    CREATE TABLE lock_state (
                        id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, campaign_id TEXT,
                        check_in_status TEXT NOT NULL, opens_at INTEGER, closes_at INTEGER,
                        hlc INTEGER NOT NULL, author BLOB NOT NULL, seq INTEGER NOT NULL);

                    CREATE VIEW live_presence AS
                        SELECT p.* FROM presence p WHERE NOT EXISTS (
                            SELECT 1 FROM undo u WHERE u.target_author = p.author AND u.target_seq = p.seq);

                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v2-roster") { db in
            // The roster is local knowledge, not part of the digest: a kiosk learns an enrollment
            // from the organizer's chain or, earlier, from the certificate a peer presents.
            try db.execute(
                sql: """
                    CREATE TABLE roster (
                        kiosk BLOB PRIMARY KEY NOT NULL, name TEXT NOT NULL, location TEXT NOT NULL,
                        envelope BLOB NOT NULL, signature BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE revocation (
                        kiosk BLOB PRIMARY KEY NOT NULL, watermark INTEGER NOT NULL,
                        envelope BLOB NOT NULL, signature BLOB NOT NULL) WITHOUT ROWID;
                    CREATE TABLE network_key (
                        generation INTEGER NOT NULL, kiosk BLOB NOT NULL, sealed BLOB NOT NULL,
                        PRIMARY KEY (generation, kiosk)) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v3-name-search") { db in
            // Folded first and last names (see NameKey), indexed, for the organizer's name search.
            // Derived from the person fields, so not part of the digest.
            try db.execute(
                sql: """
                    ALTER TABLE attendee ADD COLUMN first_key TEXT NOT NULL DEFAULT '';
                    ALTER TABLE attendee ADD COLUMN last_key TEXT NOT NULL DEFAULT '';
                    CREATE INDEX attendee_first_key ON attendee(campaign_id, first_key);
                    CREATE INDEX attendee_last_key ON attendee(campaign_id, last_key);
                    """
            )
            let rows = try Row.fetchAll(db, sql: "SELECT campaign_id, key, first_name, last_name FROM attendee")
            for row in rows {
                try db.execute(
                    sql: "UPDATE attendee SET first_key = ?, last_key = ? WHERE campaign_id = ? AND key = ?",
                    arguments: [
                        NameKey.fold(row["first_name"]), NameKey.fold(row["last_name"]), row["campaign_id"] as String,
                        row["key"] as String,
                    ]
                )
            }
        }
        migrator.registerMigration("v4-trust-by-author") { db in
            // Kiosk-authored facts are checked for meaning (issue 13):
            // - `locked_campaign`: every (campaign, member status) an organizer lock named; a presence
            //   counts only there.
            // - `presence_end`: the arrivals a check-out names; `ends_by_time` marks older check-outs
            //   that name none and end what sorts before them.
            // - the kiosk name and location of a presence come from the author's certificate on the
            //   roster, at read time, never from the payload.
            // - `fork_cut`: the lowest seq at which an author was seen to fork; its chain ends before it.
            // - an undo names its target's hash (`undo.target_hash`, `presence.hash`) and a revocation
            //   its watermark's (`revocation.watermark_hash`), so both hit the same delta everywhere.
            // The derived tables are rebuilt, so every replica holds the same state for the same log
            // whatever version first materialized it.
            try db.execute(
                sql: """
                    CREATE TABLE locked_campaign (
                        campaign_id TEXT NOT NULL, check_in_status TEXT NOT NULL,
                        PRIMARY KEY (campaign_id, check_in_status)) WITHOUT ROWID;
                    CREATE TABLE presence_end (
                        author BLOB NOT NULL, seq INTEGER NOT NULL,
                        target_author BLOB NOT NULL, target_seq INTEGER NOT NULL,
                        PRIMARY KEY (author, seq, target_author, target_seq)) WITHOUT ROWID;
                    CREATE INDEX presence_end_target ON presence_end(target_author, target_seq);
                    ALTER TABLE presence ADD COLUMN ends_by_time INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE presence ADD COLUMN hash BLOB NOT NULL DEFAULT x'';
                    ALTER TABLE undo ADD COLUMN target_hash BLOB;
                    ALTER TABLE revocation ADD COLUMN watermark_hash BLOB;
                    CREATE TABLE fork_cut (author BLOB PRIMARY KEY NOT NULL, seq INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE INDEX fork_evidence_ref ON fork_evidence(author, seq);

                    DROP VIEW live_presence;
                    CREATE VIEW live_presence AS
                        SELECT p.author, p.seq, p.kind, p.hlc, p.campaign_id, p.attendee_key,
                            COALESCE(r.name, '') AS kiosk_name, COALESCE(r.location, '') AS location,
                            p.member_status, p.ends_by_time, p.hash
                        FROM presence p LEFT JOIN roster r ON r.kiosk = p.author
                        WHERE EXISTS (
                                SELECT 1 FROM locked_campaign l
                                WHERE l.campaign_id = p.campaign_id AND l.check_in_status = p.member_status)
                            AND NOT EXISTS (
                                SELECT 1 FROM undo u WHERE u.target_author = p.author AND u.target_seq = p.seq
                                    AND (u.target_hash IS NULL OR u.target_hash = p.hash));
                    CREATE VIEW open_arrival AS
                        SELECT a.* FROM live_presence a WHERE a.kind != 5 AND NOT EXISTS (
                            SELECT 1 FROM live_presence o
                            WHERE o.kind = 5 AND o.campaign_id = a.campaign_id AND o.attendee_key = a.attendee_key
                                AND (EXISTS (
                                        SELECT 1 FROM presence_end e WHERE e.author = o.author AND e.seq = o.seq
                                            AND e.target_author = a.author AND e.target_seq = a.seq)
                                    OR (o.ends_by_time = 1 AND (o.hlc, o.author, o.seq) > (a.hlc, a.author, a.seq))));
                    """
            )
            // Rebuilt by the last migration that rebuilds (v10-half-the-bytes), with the tables that version
            // materializes into; a rebuild here would write into tables that do not exist yet.
        }
        migrator.registerMigration("v5-doors") { db in
            // Door rules and zones (issue 16):
            // - `lock_state.rules`: the lock's door rules in their versioned encoding (nil: none).
            // - `scan`: refused door scans, the audit's other half (accepted ones are the presences).
            // - a check-in into an exclusive zone ends arrivals elsewhere through `presence_end`, as a
            //   check-out does, so `open_arrival` takes any live presence naming an arrival as its end.
            try db.execute(
                sql: """
                    ALTER TABLE lock_state ADD COLUMN rules BLOB;
                    CREATE TABLE scan (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, reason INTEGER NOT NULL,
                        count INTEGER NOT NULL, at_millis INTEGER NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;

                    DROP VIEW open_arrival;
                    CREATE VIEW open_arrival AS
                        SELECT a.* FROM live_presence a WHERE a.kind != 5 AND NOT EXISTS (
                            SELECT 1 FROM live_presence o
                            WHERE o.campaign_id = a.campaign_id AND o.attendee_key = a.attendee_key
                                AND (EXISTS (
                                        SELECT 1 FROM presence_end e WHERE e.author = o.author AND e.seq = o.seq
                                            AND e.target_author = a.author AND e.target_seq = a.seq)
                                    OR (o.kind = 5 AND o.ends_by_time = 1
                                        AND (o.hlc, o.author, o.seq) > (a.hlc, a.author, a.seq))));
                    """
            )
            // Rebuilt by v10-half-the-bytes, with every table the current version materializes into.
        }
        migrator.registerMigration("v5-badge") { db in
            // Printed badges (issue 15), kind 11: the reprint guard every kiosk shares. Part of the
            // digest. The log may already hold badge deltas a newer peer sent before this kiosk
            // understood them, so the derived tables are rebuilt.
            try db.execute(
                sql: """
                    CREATE TABLE badge (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, reason INTEGER NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX badge_attendee ON badge(campaign_id, attendee_key);
                    """
            )
            // Rebuilt by v10-half-the-bytes, with every table the current version materializes into.
        }
        migrator.registerMigration("v6-lock-language") { db in
            // The screen's language on the lock (issue 14): `lock_state.language`, nil for none. Hashed
            // into the digest only when set, so a replica whose locks carry no language keeps its digest.
            // The rebuild is the one v5-badge used to run (the log may hold deltas a newer peer sent
            // before this kiosk understood them); it moved here because it writes this column.
            try db.execute(sql: "ALTER TABLE lock_state ADD COLUMN language TEXT;")
            // Rebuilt by v10-half-the-bytes, with the tables this version materializes into (today's
            // Materializer no longer writes the attendee table of this version).
        }
        migrator.registerMigration("v7-organizer-devices") { db in
            // `roster.role`: a kiosk (0) or an organizer device (1), from the certificate (``EnrollRole``).
            // `network_key.source`: the hash of the revocation that sealed the key. Two revocations
            // signed on either side of a partition may both announce the same generation; every
            // replica keeps the key of the one with the lowest hash, so all end on the same key.
            // `network_key.issued_at`: that revocation's timestamp, where older keys' grace period starts.
            try db.execute(
                sql: """
                    ALTER TABLE roster ADD COLUMN role INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE network_key ADD COLUMN source BLOB NOT NULL DEFAULT x'';
                    ALTER TABLE network_key ADD COLUMN issued_at INTEGER NOT NULL DEFAULT 0;
                    """
            )
        }
        migrator.registerMigration("v8-insiders-change-nothing-they-did-not-author") { db in
            // An enrolled kiosk that lies changes nothing it did not author:
            // - A change's end (`presence_end`) names, per author, the newest arrival it ends, and ends
            //   every arrival of the same attendee by that author up to it, provided the named delta is
            //   an arrival of that attendee (so a reference to a seq not yet written ends nothing that
            //   was not already named). One reference per author: a kiosk flooding check-ins of one
            //   person cannot push her arrivals past what a check-out may name (`DoorPolicy.ends`). Older
            //   check-outs named every open arrival, so this only ends what they meant to.
            // - An import outranks every registration (`import_outranks_walk_in`): an imported attendee
            //   is not a walk-in and has no walk-in ticket, whichever arrives first. The registration
            //   side of the rule is in `Materializer.applyRegistration`. A plain insert never fires the
            //   trigger and its body runs only when a row turns imported (a registration came first), so
            //   an import of a fresh list pays nothing and a re-import one comparison per row.
            try db.execute(
                sql: """
                    CREATE INDEX walk_in_ticket_attendee ON walk_in_ticket(campaign_id, attendee_key);
                    CREATE TRIGGER import_outranks_walk_in AFTER UPDATE OF imported ON attendee
                        WHEN old.imported = 0 AND new.imported = 1
                    BEGIN
                        UPDATE attendee SET walk_in = 0 WHERE campaign_id = new.campaign_id AND key = new.key;
                        DELETE FROM walk_in_ticket WHERE campaign_id = new.campaign_id AND attendee_key = new.key;
                    END;

                    DROP VIEW open_arrival;
                    CREATE VIEW open_arrival AS
                        SELECT a.* FROM live_presence a WHERE a.kind != 5 AND NOT EXISTS (
                            SELECT 1 FROM live_presence o
                            WHERE o.campaign_id = a.campaign_id AND o.attendee_key = a.attendee_key
                                AND (EXISTS (
                                        SELECT 1 FROM presence_end e JOIN presence t
                                            ON t.author = e.target_author AND t.seq = e.target_seq
                                        WHERE e.author = o.author AND e.seq = o.seq
                                            AND e.target_author = a.author AND e.target_seq >= a.seq
                                            AND t.kind != 5 AND t.campaign_id = a.campaign_id
                                            AND t.attendee_key = a.attendee_key)
                                    OR (o.kind = 5 AND o.ends_by_time = 1
                                        AND (o.hlc, o.author, o.seq) > (a.hlc, a.author, a.seq))));
                    """
            )
            // Rebuilt by v10-half-the-bytes.
        }
        migrator.registerMigration("v9-set-aside") { db in
            // What a revocation cut off a chain is set aside here instead of destroyed: a local table,
            // outside the digest and never served. When the revocation stops counting (its device
            // was revoked, its organizer branch lost a fork) the deltas are ingested again
            // (``Replica/restoreSetAside(nowMillis:clockBoundMillis:)``), so no acknowledged check-in
            // is lost to a revocation that is taken back.
            try db.execute(
                sql: """
                    CREATE TABLE set_aside (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, envelope BLOB NOT NULL, signature BLOB NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v10-half-the-bytes") { db in
            // Each attendee and each delta stops storing what the replica can compute (BENCHMARKS.md,
            // what the replica holds), none of it part of the digest:
            // - `attendee.i_hlc`, `i_author`, `i_seq`: the import stamp always equalled the person
            //   stamp of an imported row (``HotStatements/Kind/upsertAttendeeSQL``), 42 bytes a row.
            // - `attendee.email` is `NULL` where it is the key (``Materializer/storedEmail(_:key:)``).
            // - `delta.hash` is the envelope's BLAKE2b-256, computed where it is read (32 bytes a delta).
            // - `attendee.campaign` is a local number for the campaign's id (`campaign_number`), in the
            //   row and in each of its three indexes: 60 bytes an attendee with a 16-character id.
            //   Readers use the view `attendee_row`, which has the id back as `campaign_id`; the numbers
            //   are this replica's own and never leave it (the digest hashes the id).
            // SQLite cannot drop a column's NOT NULL, so the attendee table is made again (its indexes
            // and trigger with it) and the state rebuilt from the log.
            try db.execute(
                sql: """
                    DROP TABLE attendee;
                    CREATE TABLE campaign_number (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
                    CREATE TABLE attendee (
                        campaign INTEGER NOT NULL, key TEXT NOT NULL,
                        email TEXT, first_name TEXT NOT NULL, last_name TEXT NOT NULL, company TEXT NOT NULL,
                        p_hlc INTEGER NOT NULL, p_author BLOB NOT NULL, p_seq INTEGER NOT NULL,
                        ticket TEXT, ticket_key TEXT, salesforce_id TEXT, status TEXT, admitted INTEGER NOT NULL,
                        imported INTEGER NOT NULL, walk_in INTEGER NOT NULL,
                        first_key TEXT NOT NULL DEFAULT '', last_key TEXT NOT NULL DEFAULT '',
                        details BLOB, order_key TEXT,
                        PRIMARY KEY (campaign, key)) WITHOUT ROWID;
                    CREATE INDEX attendee_ticket ON attendee(campaign, ticket_key);
                    CREATE INDEX attendee_first_key ON attendee(campaign, first_key);
                    CREATE INDEX attendee_last_key ON attendee(campaign, last_key);
                    CREATE VIEW attendee_row AS
                        SELECT c.id AS campaign_id, a.* FROM attendee a JOIN campaign_number c ON c.n = a.campaign;
                    CREATE TRIGGER import_outranks_walk_in AFTER UPDATE OF imported ON attendee
                        WHEN old.imported = 0 AND new.imported = 1
                    BEGIN
                        UPDATE attendee SET walk_in = 0 WHERE campaign = new.campaign AND key = new.key;
                        DELETE FROM walk_in_ticket
                            WHERE campaign_id = (SELECT id FROM campaign_number WHERE n = new.campaign)
                                AND attendee_key = new.key;
                    END;
                    ALTER TABLE delta DROP COLUMN hash;
                    """
            )
            try Materializer.rebuild(db: db)
        }
        migrator.registerMigration("v11-badge-code") { db in
            // Replaced badge codes (issue 37), kind 14: a grow-only set, `code` NULL where a replacement
            // gave the list's code back. Part of the digest when it has rows. Earlier versions refuse
            // kind 14 outright, so no log they wrote holds one and nothing needs rebuilding.
            try db.execute(
                sql: """
                    CREATE TABLE badge_code (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, code TEXT,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX badge_code_attendee ON badge_code(campaign_id, attendee_key);
                    CREATE INDEX badge_code_code ON badge_code(campaign_id, code);
                    """
            )
        }
        migrator.registerMigration("v12-attendee-details") { db in
            // What a real list says of a ticket (issue 35): the encoded ``AttendeeDetails`` of the
            // attendee's newest import, NULL when it said nothing (one byte a row). Decoded where the
            // row is read; part of the digest only where it is not NULL. A log older than this
            // version holds no attendee with details (it refused them), so nothing is rebuilt.
            // `order_key`: the order (its code as ``TicketCode`` compares codes), so a party is found
            // by its order; indexed only where there is one, so a list without orders costs no index.
            // v10 makes the table with the columns (its rebuild writes rows as this code does), so only
            // a replica that was already at v10 or v11 gains them here.
            if try !db.columns(in: "attendee").contains(where: { $0.name == "details" }) {
                try db.execute(sql: "ALTER TABLE attendee ADD COLUMN details BLOB")
                try db.execute(sql: "ALTER TABLE attendee ADD COLUMN order_key TEXT")
            }
            try db.execute(
                sql: "CREATE INDEX attendee_order ON attendee(campaign, order_key) WHERE order_key IS NOT NULL"
            )
        }
        migrator.registerMigration("v13-redemption") { db in
            // Add-ons handed out (issue 35), kind 15: a grow-only set, part of the digest when it has
            // rows. Earlier versions refuse kind 15 outright, so no log they wrote holds one.
            try db.execute(
                sql: """
                    CREATE TABLE redemption (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, addon TEXT NOT NULL,
                        PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX redemption_attendee ON redemption(campaign_id, attendee_key);
                    """
            )
        }
        migrator.registerMigration("v14-sessions") { db in
            // Sessions, attendance and session registrations (issue 36), kinds 16-18: a session is
            // last-writer-wins by id (its payload kept whole), attendance and registrations grow-only
            // sets. Part of the digest when they have rows; earlier versions refuse these kinds outright.
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id TEXT PRIMARY KEY, zone TEXT NOT NULL, code TEXT, removed INTEGER NOT NULL, payload BLOB NOT NULL,
                        lww_hlc INTEGER NOT NULL, lww_author BLOB NOT NULL, lww_seq INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE attendance (
                        author BLOB NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL,
                        campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL, session_id TEXT NOT NULL,
                        direction INTEGER NOT NULL, PRIMARY KEY (author, seq)) WITHOUT ROWID;
                    CREATE INDEX attendance_session ON attendance(session_id, author);
                    CREATE INDEX attendance_attendee ON attendance(campaign_id, attendee_key);
                    CREATE TABLE session_registration (
                        session_id TEXT NOT NULL, campaign_id TEXT NOT NULL, attendee_key TEXT NOT NULL,
                        PRIMARY KEY (session_id, campaign_id, attendee_key)) WITHOUT ROWID;
                    """
            )
        }
        return migrator
    }
}
