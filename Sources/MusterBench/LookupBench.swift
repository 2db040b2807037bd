import GRDB
import MusterCore
import MusterStore

/// Exact lookups on a replica of `attendees` imported attendees: through ``ReplicaView`` (what the
/// kiosk screen and `muster lookup` do, one read transaction per lookup), and the raw SQLite time of
/// the same row fetched with a cached prepared statement on an open connection.
///
/// There is no organizer name search in ``ReplicaView`` or `StaffQueries` (lookup is exact by design,
/// so the kiosk cannot browse the list), so none is measured.
enum LookupBench {
    struct Result {
        var email = LatencySample()
        var ticket = LatencySample()
        var rawEmail = LatencySample()
        var rawTicket = LatencySample()
        /// SQLite's plan for `SELECT *` by ticket, reported because it is not the ticket index.
        var selectStarPlan = ""
    }

    /// Imports the attendees into a fresh replica at `path` and returns it open (the local-commit
    /// figure reuses it).
    static func prepare(_ options: BenchOptions, venue: BenchVenue, path: String) throws -> Replica {
        let log = venue.importLog(attendees: options.attendees)
        let replica = try venue.openReplica(path: path)
        let now = BenchVenue.now(after: log.count)
        for page in CatchUpBench.pages(log, size: options.batchSize) {
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

        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: replica.path, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            let byKey = try db.cachedStatement(sql: "SELECT * FROM attendee WHERE campaign_id = ? AND key = ?")
            // The replica's two steps: the key from the covering ticket index, then the row by primary key.
            // (`SELECT *` with the same WHERE lets the planner scan the campaign by primary key instead; see
            // `selectStarPlan`.)
            let ticketKeys = try db.cachedStatement(
                sql: "SELECT key FROM attendee WHERE campaign_id = ? AND ticket_key = ? ORDER BY key LIMIT 1")
            for index in picks {
                let key = EmailAddress.key(BenchVenue.email(index))
                let row = try result.rawEmail.measure { try Row.fetchOne(byKey, arguments: [campaign, key]) }
                guard row != nil else { throw BenchError(.wrongResult, "raw key query missed \(key)") }
            }
            for index in picks {
                let ticketKey = TicketCode.normalize(BenchVenue.ticket(index))
                let row = try result.rawTicket.measure { () throws -> Row? in
                    guard let key = try String.fetchOne(ticketKeys, arguments: [campaign, ticketKey]) else { return nil }
                    return try Row.fetchOne(byKey, arguments: [campaign, key])
                }
                guard row != nil else { throw BenchError(.wrongResult, "raw ticket query missed \(ticketKey)") }
            }
            result.selectStarPlan = try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT * FROM attendee WHERE campaign_id = ? AND ticket_key = ?",
                arguments: [campaign, "MB-100000"]
            ).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
        }
        return result
    }
}
