import ArgumentParser
import MusterClient

struct Campaigns: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List campaigns, or search them by name.")
    @OptionGroup var options: KioskOptions
    @Argument(help: "Part of a campaign name.") var text: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try options.context()
        let list = try guarded { () throws(ClientError) in try StaffQueries(context).campaigns(matching: text) }
        if json { try Output.json(list) } else { StaffQueries.print(list) }
    }
}

struct Attendees: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Staff view: attendees of the locked (or given) campaign.")
    @OptionGroup var options: KioskOptions
    @Option(help: "Campaign (default: the locked one).") var campaign: String?
    @Flag(name: .customLong("checked-in"), help: "Only those checked in.") var checkedIn = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try options.context()
        let list = try guarded { () throws(ClientError) in
            try StaffQueries(context).attendees(campaign: campaign, checkedInOnly: checkedIn)
        }
        if json { try Output.json(list.map(AttendeeJSON.init)) } else { StaffQueries.print(list) }
    }
}

struct Export: ParsableCommand {
    enum Kind: String, ExpressibleByArgument, CaseIterable { case members, leads, log }
    static let configuration = CommandConfiguration(
        abstract: "Export CSV: members (Salesforce Data Loader Id,Status), leads (walk-ins), log (every check-in/out).")
    @OptionGroup var options: KioskOptions
    @Argument(help: "members, leads or log.") var kind: Kind
    @Option(help: "Campaign (default: the locked one; log: all campaigns).") var campaign: String?

    func run() throws {
        let context = try options.context()
        let text = try guarded { () throws(ClientError) in
            let queries = StaffQueries(context)
            switch kind {
            case .members: return Exporter.members(try queries.attendees(campaign: campaign, checkedInOnly: true))
            case .leads: return Exporter.leads(try queries.attendees(campaign: campaign, checkedInOnly: false))
            case .log: return Exporter.log(try queries.log(campaign: campaign))
            }
        }
        Output.raw(text)
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Kiosk name and key, lock, counts, deltas per author, digest.")
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try options.context()
        let report = try guarded { () throws(ClientError) in try StaffQueries(context).status() }
        if json { try Output.json(report) } else { report.print() }
    }
}
