import GRDB
public import MusterRules

/// The replica's per-delta write statements, prepared once on the writer connection and kept
/// here, so that finding one is an array index.
///
/// GRDB's statement cache is keyed by the SQL text, and hashing a 2 KB upsert for every delta was
/// an eighth of a catch-up's instructions (callgrind, BENCHMARKS.md). Only the statements run for
/// every delta live here; the rest use GRDB's cache.
///
/// `@unchecked Sendable`: the statements are only touched inside the writer's transactions, which
/// GRDB runs one at a time on its single writer connection.
final class HotStatements: @unchecked Sendable {
    enum Kind: Int, CaseIterable {
        case insertDelta, internCampaign, upsertAttendee, insertPresence, authorRecord

        var sql: String {
            switch self {
            case .insertDelta:
                """
                INSERT INTO delta(author, seq, kind, hlc, envelope, signature, received_at, sig_verified)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
            case .internCampaign: Self.internCampaignSQL
            case .upsertAttendee: Self.upsertAttendeeSQL
            case .authorRecord: AuthorRecord.sql
            case .insertPresence:
                """
                INSERT OR IGNORE INTO presence(author, seq, kind, hlc, campaign_id, attendee_key,
                    kiosk_name, location, member_status, ends_by_time, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            }
        }

        /// The attendee table names a campaign by a number of this replica's own (`campaign_number`,
        /// ReplicaSchema v10): given before the first row of a campaign is written.
        static let internCampaignSQL = "INSERT INTO campaign_number(id) VALUES (?) ON CONFLICT(id) DO NOTHING"

        /// The number of the campaign whose id is `parameter`, as an SQL expression.
        static func campaignNumber(_ parameter: String) -> String {
            "(SELECT n FROM campaign_number WHERE id = \(parameter))"
        }

        /// A new attendee row is inserted with every field; an existing one has its fields replaced
        /// when no import had set them (an import outranks any walk-in) or by a newer import (the same
        /// last-writer-wins rule as `Materializer.updatePerson` and as a row made by
        /// `Materializer.ensureAttendee`).
        ///
        /// One stamp serves the person fields and the import fields alike: only imports write the
        /// import fields, and the first import takes the person fields too, so once a row is
        /// imported its person stamp is its newest import's. The row once kept that stamp twice
        /// (42 bytes an attendee). The email is stored only where it differs from the key
        /// (`NULL` otherwise: 20 bytes an attendee); readers take `COALESCE(email, key)`.
        static let upsertAttendeeSQL = """
            INSERT INTO attendee(campaign, key, email, first_name, last_name, company, p_hlc, p_author, p_seq,
                ticket, ticket_key, salesforce_id, status, admitted, imported, walk_in, first_key, last_key, details,
                order_key)
            VALUES (\(campaignNumber("?1")), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 1, 0, ?15, ?16, ?17, ?18)
            ON CONFLICT(campaign, key) DO UPDATE SET
                email = excluded.email, first_name = excluded.first_name, last_name = excluded.last_name,
                first_key = excluded.first_key, last_key = excluded.last_key, company = excluded.company,
                p_hlc = excluded.p_hlc, p_author = excluded.p_author, p_seq = excluded.p_seq,
                ticket = excluded.ticket, ticket_key = excluded.ticket_key,
                salesforce_id = excluded.salesforce_id, status = excluded.status, admitted = excluded.admitted,
                details = excluded.details, order_key = excluded.order_key, imported = 1
            WHERE attendee.imported = 0
                OR (attendee.p_hlc, attendee.p_author, attendee.p_seq) < (excluded.p_hlc, excluded.p_author, excluded.p_seq)
            """
    }

    private var statements: [Statement?] = Array(repeating: nil, count: Kind.allCases.count)
    private var connection: ObjectIdentifier?

    /// The prepared statement of `kind` on `db` (prepared on first use, and again if the
    /// connection ever changes).
    func statement(_ kind: Kind, db: Database) throws -> Statement {
        let id = ObjectIdentifier(db)
        if connection != id {
            statements = Array(repeating: nil, count: Kind.allCases.count)
            connection = id
        }
        if let statement = statements[kind.rawValue] { return statement }
        let statement = try db.makeStatement(sql: kind.sql)
        statements[kind.rawValue] = statement
        return statement
    }

    /// Finalizes the statements (before the connection closes).
    func drop() {
        statements = Array(repeating: nil, count: Kind.allCases.count)
        connection = nil
    }

    /// Runs `kind` with `hot`'s prepared statement, or through GRDB's cache when there is none
    /// (a rebuild, or a caller outside the writer).
    static func run(_ kind: Kind, _ hot: HotStatements?, db: Database, bind: (inout BoundStatement) -> Void) throws {
        if let hot {
            try db.run(hot.statement(kind, db: db), bind: bind)
        } else {
            try db.run(kind.sql, bind: bind)
        }
    }
}
