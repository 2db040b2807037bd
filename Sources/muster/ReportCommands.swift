import ArgumentParser
import Foundation
import MusterClient
import MusterPretix
import MusterTime

struct Campaigns: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List campaigns, or search them by name.")
    @OptionGroup var options: KioskOptions
    @Argument(help: "Part of a campaign name.") var text: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let list = try options.query { queries throws(ClientError) in try queries.campaigns(matching: text) }
        if json { try Output.json(list) } else { StaffQueries.print(list) }
    }
}

struct Attendees: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Staff view: attendees of the locked (or given) campaign."
    )
    @OptionGroup var options: KioskOptions
    @Option(help: "Campaign (default: the locked one).") var campaign: String?
    @Flag(name: .customLong("checked-in"), help: "Only those checked in.") var checkedIn = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let list = try options.query { queries throws(ClientError) in
            try queries.attendees(campaign: campaign, checkedInOnly: checkedIn)
        }
        if json { try Output.json(list.map(AttendeeJSON.init)) } else { StaffQueries.print(list) }
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Staff view: find attendees by name.",
        discussion: """
            Lists attendees whose first or last name starts with the first word (case and accents are \
            ignored) and whose name has a word starting with each other word: 'hop' finds Grace Hopper, \
            'grace h' too. For the staff desk and the organizer; the kiosk screen only looks up exact \
            emails and ticket codes.
            """
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "The start of a first and/or last name.") var name: String
    @Option(help: "Campaign (default: the locked one).") var campaign: String?
    @Option(help: "At most this many results.") var limit = 20
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let list = try options.query { queries throws(ClientError) in
            try queries.search(name: name, campaign: campaign, limit: max(1, limit))
        }
        if json { try Output.json(list.map(AttendeeJSON.init)) } else { StaffQueries.print(list) }
        // 2, as for every "not found" (docs/organizer.md, exit codes).
        if list.isEmpty { throw ExitCode(2) }
    }
}

struct Export: ParsableCommand {
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case members, leads, log, audit, attendees, sessions, certificates
        case pretixRedeem = "pretix-redeem"
    }
    static let configuration = CommandConfiguration(
        abstract:
            "Export CSV: members (Salesforce Data Loader Id,Status), leads (walk-ins), log (every check-in/out), audit (every door scan, refused ones with their reason), attendees (the list with ticket type, order, add-ons, attention and validity), sessions (attendance per session and person: in, out, minutes, status), certificates (one attendance line per person and session), pretix-redeem (JSON lines for pretix's check-in API, with --list)."
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "members, leads, log, audit, attendees, sessions, certificates or pretix-redeem.") var kind: Kind
    @Option(help: "Campaign (default: the locked one; log: all campaigns).") var campaign: String?
    @Option(help: "pretix-redeem: the id of pretix's check-in list.") var list: Int?

    func validate() throws {
        if kind == .pretixRedeem, list == nil { throw ValidationError("pretix-redeem needs --list") }
    }

    func run() throws {
        let text = try options.query { queries throws(ClientError) in
            switch kind {
            case .members: return Exporter.members(try queries.attendees(campaign: campaign, checkedInOnly: true))
            case .leads: return Exporter.leads(try queries.attendees(campaign: campaign, checkedInOnly: false))
            case .log: return Exporter.log(try queries.log(campaign: campaign))
            case .sessions, .certificates:
                let lines = try queries.attendance(
                    campaign: campaign,
                    nowMillis: Int64(Date().timeIntervalSince1970 * 1000)
                )
                return kind == .sessions ? Exporter.sessions(lines) : Exporter.certificates(lines)
            case .attendees:
                return Exporter.attendees(try queries.attendees(campaign: campaign, checkedInOnly: false))
            case .pretixRedeem:
                // The bodies `muster push pretix` sends, one JSON object a line, for a later upload.
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                return PretixRedeem.scans(try queries.log(campaign: campaign), list: list ?? 0).map { scan in
                    (try? encoder.encode(scan)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
                }.joined()
            case .audit:
                let entries = try queries.audit(campaign: campaign)
                let names = Dictionary(try queries.sessions().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                return Exporter.audit(entries, conflicts: try queries.conflicts(of: entries), sessions: names)
            }
        }
        Output.raw(text)
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Kiosk name and key, lock, counts, deltas per author, digest."
    )
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Refresh in place every second until interrupted.") var watch = false

    func run() throws {
        try showQuery(options, every: watch ? .seconds(1) : nil, json: json) { queries throws(ClientError) in
            try queries.status()
        } text: {
            $0.print()
        }
    }
}

struct Fleet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Every enrolled kiosk: in session, last heard or never heard, its records held here, revoked."
    )
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Refresh in place every second until interrupted.") var watch = false

    func run() throws {
        try showQuery(options, every: watch ? .seconds(1) : nil, json: json) { queries throws(ClientError) in
            try queries.fleet()
        } text: {
            $0.print()
        }
    }
}

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check what breaks at a venue (avahi-daemon, multicast, clock, state directory, enrollment, lock) and say what to do."
    )
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let config = try options.kioskConfig()
        let checks = Doctor(config: config).run()
        if json { try Output.json(checks) } else if !Doctor.print(checks) { throw ExitCode(1) }
        if json, checks.contains(where: { $0.verdict == .failed }) { throw ExitCode(1) }
    }
}

struct OccupancyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "occupancy",
        abstract: "Inside / capacity per zone and venue-wide (the organizer's live view)."
    )
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Refresh in place every two seconds until interrupted.") var watch = false

    func run() throws {
        try showQuery(options, every: watch ? .seconds(2) : nil, json: json) { queries throws(ClientError) in
            try queries.occupancy()
        } text: {
            for line in OccupancyText.lines($0) { Output.data(line) }
        }
    }
}

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Organizer reports from this kiosk's replica.",
        subcommands: [Arrivals.self, Conflicts.self]
    )

    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Staff view: what doors cut off from each other admitted twice.",
            discussion: """
                Every once-only thing a door admitted without having heard the other admission: a second \
                entry under --entries once or --no-re-entry, a check-in while already inside, an admission \
                over a zone's capacity without escrow, a second self-service badge. Each with the doors, \
                the times and the person. Every kiosk that holds the same deltas lists the same.
                """
        )
        @OptionGroup var options: KioskOptions
        @Option(help: "Campaign (default: the locked one).") var campaign: String?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let report = try options.query { queries throws(ClientError) in
                try ConflictReport.make(queries, campaign: campaign)
            }
            if json { try Output.json(report) } else { for line in report.lines() { Output.data(line) } }
        }
    }

    struct Arrivals: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Arrivals per time bucket per zone, as a terminal bar chart (80 columns) or CSV."
        )
        @OptionGroup var options: KioskOptions
        @Option(help: "Only this zone (a kiosk location).") var zone: String?
        @Option(help: "Bucket size: 10m, 1h, 30s (default 10m).") var bucket = "10m"
        @Option(help: "Campaign (default: the locked one).") var campaign: String?
        @Flag(help: "Print CSV (Bucket,Zone,Arrivals) instead of the chart.") var csv = false
        @Option(help: "Only the entries into this session (issue 36), by its name.") var session: String?

        func run() throws {
            let context = try options.context()
            let charts = try guarded { () throws(ClientError) in
                let bucketMillis = try ArrivalsReport.bucketMillis(bucket)
                if let session {
                    return [
                        try ArrivalsReport(context).sessionChart(
                            session,
                            campaign: campaign,
                            bucketMillis: bucketMillis
                        )
                    ]
                }
                return try ArrivalsReport(context).charts(campaign: campaign, zone: zone, bucketMillis: bucketMillis)
            }
            if csv {
                Output.raw(ArrivalsReport.csv(charts))
                return
            }
            for (index, entry) in charts.enumerated() {
                if index > 0 { Output.line() }
                for line in entry.chart.lines() { Output.data(line) }
            }
        }
    }
}

/// Shows what `query` reads from the kiosk's replica once, or, with an `interval`, again at each interval
/// until interrupted, each time on a cleared screen: as JSON with `json`, else as `text` prints it.
func showQuery<Value: Encodable>(
    _ options: KioskOptions,
    every interval: Duration?,
    json: Bool,
    _ query: @escaping (StaffQueries) throws(ClientError) -> Value,
    text: (Value) -> Void
) throws {
    let context = try options.context()
    let watcher = Watch(interval: interval) { () throws(ClientError) in try query(StaffQueries(context)) }
    try guarded { () throws(ClientError) in
        try watcher.runBlocking(time: SystemTime()) { value, refresh in
            // Home and clear: our own control sequence, never data.
            if refresh { Output.raw("\u{1B}[H\u{1B}[2J") }
            if json { try? Output.json(value) } else { text(value) }
        }
    }
}
