import Foundation
import MusterControl
import MusterCore
public import MusterRules
import MusterStore
import MusterTime

/// Read-only queries for staff and organizer commands, straight from the replica.
public struct StaffQueries {
    let client: ClientContext

    public init(_ client: ClientContext) { self.client = client }

    /// The campaign named on the command line, else the locked one.
    func campaignID(_ name: String?) throws(ClientError) -> String {
        let replica = try client.replica()
        do {
            return try replica.view { view throws -> String in
                if let name {
                    if let record = try view.campaign(named: name) { return record.id }
                    if let record = try view.campaigns().first(where: { $0.id == name }) { return record.id }
                    throw ClientError(.notFound, "no campaign named '\(name)'; see 'muster campaigns'")
                }
                guard let id = try view.lock()?.campaignID else {
                    throw ClientError(.refused, "no campaign is locked; name one with --campaign")
                }
                return id
            }
        } catch {
            throw Self.clientError(error)
        }
    }

    /// Runs a read on the replica, its errors turned into ``ClientError``s.
    private func read<T>(_ body: (Replica) throws -> T) throws(ClientError) -> T {
        do {
            return try body(try client.replica())
        } catch {
            throw Self.clientError(error)
        }
    }

    /// Unwraps errors from reads: a ``ClientError`` thrown inside a replica transaction comes back as is.
    static func clientError(_ error: any Error) -> ClientError {
        if let error = error as? ClientError { return error }
        if let error = error as? ReplicaError {
            if let underlying = error.underlying as? ClientError { return underlying }
            return ClientError(.failed, error.message, cause: error)
        }
        return ClientError(.failed, describing: error)
    }

    public func lookup(_ query: String) throws(ClientError) -> AttendeeRecord {
        let campaign = try campaignID(nil)
        let found = try read { try $0.view { try $0.lookup(campaignID: campaign, query: query) } }
        guard let found else { throw ClientError(.notFound, "no attendee matches '\(query)'") }
        return found
    }

    public func campaigns(matching text: String?) throws(ClientError) -> [CampaignJSON] {
        try read { try $0.view { try $0.campaigns(matching: text) } }.map(CampaignJSON.init)
    }

    public func attendees(campaign: String?, checkedInOnly: Bool) throws(ClientError) -> [AttendeeRecord] {
        let id = try campaignID(campaign)
        return try read { try $0.view { try $0.attendees(campaignID: id, checkedInOnly: checkedInOnly) } }
    }

    /// Organizer search by name (first or last name starts with the text; case and accents ignored).
    public func search(name: String, campaign: String?, limit: Int) throws(ClientError) -> [AttendeeRecord] {
        let id = try campaignID(campaign)
        return try read { try $0.view { try $0.search(campaignID: id, name: name, limit: limit) } }
    }

    public func log(campaign: String?) throws(ClientError) -> [PresenceLogEntry] {
        let id = try campaign.map { name throws(ClientError) in try campaignID(name) }
        return try read { try $0.presenceLog(campaignID: id) }
    }

    /// What partitions let through twice in a campaign (default: the locked one), each with its
    /// attendee: the campaign's name and the conflicts, oldest first.
    public func conflicts(campaign: String?) throws(ClientError) -> (String, [(Conflict, AttendeeRecord?)]) {
        let id = try campaignID(campaign)
        return try read { replica in
            try replica.view { view in
                let conflicts = try view.conflicts(campaignID: id)
                let attendees = try conflicts.map { try view.attendee(campaignID: id, key: $0.attendeeKey) }
                return (try view.campaignName(id: id) ?? id, Array(zip(conflicts, attendees)))
            }
        }
    }

    /// The conflicts of every campaign `entries` name, by the admission a door that had heard the
    /// others would have refused (the audit export's last column).
    public func conflicts(of entries: [AuditEntry]) throws(ClientError) -> [DeltaRef: Conflict.Kind] {
        try read { replica in
            try replica.view { view in
                var marked: [DeltaRef: Conflict.Kind] = [:]
                for campaign in Set(entries.map(\.campaignID)) {
                    for conflict in try view.conflicts(campaignID: campaign) {
                        marked[conflict.second.ref] = conflict.kind
                    }
                }
                return marked
            }
        }
    }

    /// The door audit of one campaign (or every campaign), oldest first.
    public func audit(campaign: String?) throws(ClientError) -> [AuditEntry] {
        let id = try campaign.map { name throws(ClientError) in try campaignID(name) }
        return try read { try $0.auditLog(campaignID: id) }
    }

    /// Fails first when the config's location is not the certificate's, the one mismatch that
    /// keeps musterd from starting (``KioskIdentity/checkLocation(config:enrollment:)``).
    public func status() throws(ClientError) -> StatusReport {
        let enrollment = try? KioskIdentity.loadEnrollment(config: client.config)
        if let enrollment {
            do {
                try KioskIdentity.checkLocation(config: client.config, enrollment: enrollment)
            } catch {
                throw ClientError(.config, error.message, cause: error)
            }
        }
        let status = try read { try $0.status() }
        let answer = try? client.exchange(.status)
        var daemon: StatusAnswer?
        if case .status(let status)? = answer { daemon = status }
        return StatusReport(
            config: client.config,
            location: enrollment?.location,
            organizer: client.venue.organizer,
            daemonRunning: answer != nil,
            daemon: daemon,
            status: status,
            occupancy: try? client.replica().occupancy(),
            devices: Set(((try? client.replica().roster()) ?? []).filter { $0.role == .organizerDevice }.map(\.kiosk)),
            savedHereOnly: daemon.flatMap { AuthorID(hex: $0.kioskKey) }.flatMap { me in
                try? client.replica().savedHereOnly(me: me)
            },
            madeAtMillis: client.time.wallMillis
        )
    }

    /// Every enrolled kiosk as this one knows it (``FleetReport``): the roster and the records held here,
    /// with musterd's sessions and who it heard when it answers.
    public func fleet() throws(ClientError) -> FleetReport {
        let answer = try? client.exchange(.status)
        var daemon: StatusAnswer?
        if case .status(let status)? = answer { daemon = status }
        let (roster, heads) = try read { replica in
            let roster = try replica.roster()
            var heads: [AuthorID: (seq: UInt64, newestMillis: UInt64?)] = [:]
            for entry in roster {
                heads[entry.kiosk] = (
                    try replica.head(of: entry.kiosk).seq,
                    try replica.newestHLC(author: entry.kiosk)?.physicalMillis
                )
            }
            return (roster, heads)
        }
        return FleetReport(
            roster: roster,
            me: daemon.flatMap { AuthorID(hex: $0.kioskKey) },
            daemon: daemon,
            heads: heads,
            madeAtMillis: client.time.wallMillis
        )
    }

    /// Inside / capacity per zone and venue-wide, from this kiosk's replica.
    public func occupancy() throws(ClientError) -> Occupancy {
        try read { try $0.occupancy() }
    }

    public static func print(_ record: AttendeeRecord) {
        Output.data("\(record.displayName)\(record.company.isEmpty ? "" : " (\(record.company))") <\(record.email)>")
        if let ticket = record.ticket ?? record.walkInTickets.first { Output.data("  ticket: \(ticket)") }
        if !record.admitted { Output.data("  NOT ADMITTED (\(record.status ?? "cancelled"))") }
        detailLines(record.details).forEach(Output.data)
        if let first = record.firstArrival {
            Output.data(
                "  checked in \(ClockText.dateTime(millis: Int64(clamping: first.hlc.physicalMillis))) at kiosk \(first.kioskName)"
                    + (first.location.isEmpty ? "" : " (\(first.location))")
                    + (record.isInside ? "" : ", since checked out")
            )
        } else {
            Output.line("  not checked in")
        }
    }

    /// What staff read of a ticket's details (never shown on the public screen): one line each.
    static func detailLines(_ details: AttendeeDetails?) -> [String] {
        guard let details else { return [] }
        var lines: [String] = []
        if let type = details.ticketType { lines.append("  type: \(type)") }
        if let order = details.order { lines.append("  order: \(order)") }
        if !details.addons.isEmpty { lines.append("  add-ons: \(details.addons.joined(separator: ", "))") }
        if details.attention {
            lines.append("  ATTENTION: \(details.attentionText ?? "see this attendee in person before check-in")")
        }
        if let from = details.validFromMillis { lines.append("  valid from \(ClockText.dateTime(millis: from))") }
        if let until = details.validUntilMillis { lines.append("  valid until \(ClockText.dateTime(millis: until))") }
        return lines
    }

    public static func print(_ records: [AttendeeRecord]) {
        for record in records {
            let mark = record.isInside ? "[in] " : record.isCheckedIn ? "[out]" : "[ ]  "
            let company = record.company.isEmpty ? "" : " (\(record.company))"
            let type = record.details?.ticketType.map { " [\($0)]" } ?? ""
            let attention = record.details?.attention == true ? " ATTENTION" : ""
            Output.data(
                "\(mark) \(record.displayName)\(company) <\(record.email)>\(record.walkIn ? " walk-in" : "")\(type)\(attention)"
            )
        }
        Output.line("\(records.count) attendee(s), \(records.filter(\.isCheckedIn).count) checked in")
    }

    public static func print(_ campaigns: [CampaignJSON]) {
        if campaigns.isEmpty { Output.line("No campaigns.") }
        for campaign in campaigns {
            Output.data(
                "\(campaign.name)  (\(campaign.attendees) attendees, \(campaign.checkedIn) checked in)  id \(campaign.id)"
            )
        }
    }
}

/// A campaign for `--json` output.
public struct CampaignJSON: Encodable {
    public let id: String
    public let name: String
    public let attendees: Int
    public let checkedIn: Int

    init(_ record: CampaignRecord) {
        id = record.id
        name = record.name
        attendees = record.attendees
        checkedIn = record.checkedIn
    }
}
