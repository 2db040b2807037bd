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
        case insertDelta, upsertAttendee, insertPresence, authorRecord

        var sql: String {
            switch self {
            case .insertDelta:
                """
                INSERT INTO delta(author, seq, kind, hlc, hash, envelope, signature, received_at, sig_verified)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
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

        /// A new attendee row is inserted with every field; an existing one has its person fields
        /// replaced when no import had set them (an import outranks any walk-in) or by a newer
        /// import, and its import fields each replaced only by a newer stamp (the same last-writer-wins rules
        /// as `Materializer.updatePerson` and as a row made by `Materializer.ensureAttendee`).
        static let upsertAttendeeSQL = """
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
                with: """
                    (attendee.imported = 0
                        OR (attendee.p_hlc, attendee.p_author, attendee.p_seq) < (excluded.p_hlc, excluded.p_author, excluded.p_seq))
                    """
            )
            .replacingOccurrences(
                of: "i_newer",
                with: """
                    (attendee.i_hlc IS NULL
                        OR (attendee.i_hlc, attendee.i_author, attendee.i_seq) < (excluded.i_hlc, excluded.i_author, excluded.i_seq))
                    """
            )
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
