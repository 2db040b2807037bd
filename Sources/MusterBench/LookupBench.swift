import GRDB
import MusterCore
import MusterRules
import MusterStore

/// Lookups on a replica of `attendees` imported attendees: exact email and ticket through
/// ``ReplicaView`` (what the kiosk screen and `muster lookup` do, one read transaction per lookup),
/// and the organizer's name search (`muster search`); beside each, the raw SQLite time of the same
/// rows fetched with cached prepared statements on an open connection.
enum LookupBench {
    struct Result {
        var email = LatencySample()
        var ticket = LatencySample()
        var rawEmail = LatencySample()
        var rawTicket = LatencySample()
        var name = LatencySample()
        var rawName = LatencySample()
        /// Attendees found per name search, summed (the queries match 1 to 111 names each).
        var nameMatches = 0
        /// SQLite's plan for `SELECT *` by ticket, reported because it is not the ticket index.
        var selectStarPlan = ""
    }

    /// Imports the attendees into a fresh replica at `path` and returns it open (the local-commit
    /// figure reuses it).
    static func prepare(_ options: BenchOptions, venue: BenchVenue, path: String) throws -> Replica {
        try prepare(attendees: options.attendees, venue: venue, path: path)
    }

    static func prepare(attendees: Int, venue: BenchVenue, path: String) throws -> Replica {
        let log = try venue.importLog(attendees: attendees, locked: true)
        let replica = try venue.openReplica(path: path)
        let now = BenchVenue.now(after: log.count)
        for page in CatchUpBench.pages(log, size: BenchOptions.batchSize) {
            let report = try replica.ingest(page, nowMillis: now, clockBoundMillis: BenchVenue.clockBoundMillis)
            if let refused = report.rejected.first { throw BenchError(.wrongResult, "import refused: \(refused)") }
        }
        return replica
    }

    static func run(_ options: BenchOptions, replica: Replica) throws -> Result {
        var generator = SystemRandomNumberGenerator()
        let picks = (0..<options.lookups).map { _ in Int.random(in: 0..<options.attendees, using: &generator) }
        let campaign = BenchVenue.campaign
        var result = Result()
        for index in picks {
            let email = BenchVenue.email(index)
            let found = try result.email.measure {
                try replica.view { try $0.lookup(campaignID: campaign, query: email) }
            }
            guard found?.email == email else { throw BenchError(.wrongResult, "email lookup missed \(email)") }
        }
        for index in picks {
            let ticket = BenchVenue.ticket(index)
            let found = try result.ticket.measure {
                try replica.view { try $0.lookup(campaignID: campaign, query: ticket) }
            }
            guard found?.ticket == ticket else { throw BenchError(.wrongResult, "ticket lookup missed \(ticket)") }
        }

        // A surname prefix as an organizer types it: "surname123" matches Surname123, Surname1230…9
        // and Surname12300…99 among 100,000, so each search returns 1 to 20 (the limit) attendees.
        for index in picks {
            let text = "surname\(index)"
            let found = try result.name.measure {
                try replica.view { try $0.search(campaignID: campaign, name: text, limit: 20) }
            }
            guard found.contains(where: { $0.lastName == "Surname\(index)" }) else {
                throw BenchError(.wrongResult, "name search missed \(text)")
            }
            result.nameMatches += found.count
        }

        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: replica.path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            let byKey = try db.cachedStatement(sql: "SELECT * FROM attendee_row WHERE campaign_id = ? AND key = ?")
            // The replica's two steps: the key from the covering ticket index, then the row by primary key.
            // (`SELECT *` with the same WHERE lets the planner scan the campaign by primary key instead; see
            // `selectStarPlan`.)
            let ticketKeys = try db.cachedStatement(
                sql: "SELECT key FROM attendee_row WHERE campaign_id = ? AND ticket_key = ? ORDER BY key LIMIT 1"
            )
            for index in picks {
                let key = EmailAddress.key(BenchVenue.email(index))
                let row = try result.rawEmail.measure { try Row.fetchOne(byKey, arguments: [campaign, key]) }
                guard row != nil else { throw BenchError(.wrongResult, "raw key query missed \(key)") }
            }
            for index in picks {
                let ticketKey = TicketCode.normalize(BenchVenue.ticket(index))
                let row = try result.rawTicket.measure { () throws -> Row? in
                    guard let key = try String.fetchOne(ticketKeys, arguments: [campaign, ticketKey]) else {
                        return nil
                    }
                    return try Row.fetchOne(byKey, arguments: [campaign, key])
                }
                guard row != nil else { throw BenchError(.wrongResult, "raw ticket query missed \(ticketKey)") }
            }
            // The same rows by hand: the last-name index range, then each row by primary key.
            let byName = try db.cachedStatement(
                sql: """
                    SELECT key FROM attendee_row WHERE campaign_id = ? AND last_key >= ? AND last_key < ?
                    ORDER BY last_key, key LIMIT 20
                    """
            )
            for index in picks {
                let prefix = "surname\(index)"
                let rows = try result.rawName.measure { () throws -> [Row] in
                    try String.fetchAll(byName, arguments: [campaign, prefix, prefix + "\u{10FFFF}"]).compactMap {
                        try Row.fetchOne(byKey, arguments: [campaign, $0])
                    }
                }
                guard !rows.isEmpty else { throw BenchError(.wrongResult, "raw name query missed \(prefix)") }
            }
            result.selectStarPlan = try Row.fetchAll(
                db,
                sql: "EXPLAIN QUERY PLAN SELECT * FROM attendee_row WHERE campaign_id = ? AND ticket_key = ?",
                arguments: [campaign, "MB-100000"]
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
        }
        return result
    }
}
