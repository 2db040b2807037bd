import ArgumentParser
import Foundation
import MusterClient
import MusterControl
import MusterCore
import MusterRules
import MusterTime

/// Sessions on the schedule and the host's live list (issue 36).
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Sessions: talks and workshops with their own rooms, times, capacities and attendance.",
        subcommands: [Add.self, List.self, Remove.self, ImportSchedule.self, RegisterAttendees.self, Watch.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a session to the schedule (or change the one of the same name); organizer key.",
            discussion: """
                Every kiosk of ZONE follows the schedule: while a session is open a scan there is attendance \
                of it (a second scan leaves it), between sessions the door refuses with no_session_now. \
                A capacity is split over the zone's kiosks, so the room is never over it, even cut off.
                """
        )
        @OptionGroup var options: KioskOptions
        @OptionGroup var organizer: OrganizerOptions
        @Argument(help: "The session's name.") var name: String
        @Option(help: "The room: the location of the kiosks at its doors.") var zone: String
        @Option(help: "When: HH:MM-HH:MM today, or 'YYYY-MM-DD HH:MM-HH:MM'.") var at: String?
        @Option(help: "Start (HH:MM, 'YYYY-MM-DD HH:MM' or ISO 8601), with --until, instead of --at.") var from: String?
        @Option(help: "End, with --from.") var until: String?
        @Option(help: "Most attendees let in.") var capacity: UInt32?
        @Flag(name: .customLong("registered-only"), help: "Only attendees registered for it.") var registeredOnly =
            false
        @Option(name: .customLong("opens-early"), help: "Doors admit this long before the start (e.g. 15m).")
        var opensEarly: String?
        @Option(
            name: .customLong("late-after"),
            help: "Arriving later than this after the start is late (default 10m)."
        )
        var lateAfter: String?
        @Flag(help: "Add it even if an enrolled kiosk cannot read sessions.") var force = false

        func validate() throws {
            guard (at != nil && from == nil && until == nil) || (at == nil && from != nil && until != nil) else {
                throw ValidationError("give --at START-END, or --from and --until")
            }
        }

        func run() throws {
            let (start, end) = try guarded { () throws(ClientError) in
                try SessionTimes.window(at: at, from: from, until: until)
            }
            var request = OrganizerActions.SessionRequest(name: name, zone: zone, startMillis: start, endMillis: end)
            request.capacity = capacity
            request.registeredOnly = registeredOnly
            request.opensEarlyMillis = UInt32(
                try guarded { () throws(ClientError) in try SessionTimes.margin(opensEarly, 0) }
            )
            request.lateAfterMillis = UInt32(
                try guarded { () throws(ClientError) in try SessionTimes.margin(lateAfter, 600_000) }
            )
            let message = try organizer.perform(on: options) { actions throws(ClientError) in
                try actions.addSessions([request], force: force) { Output.note("warning: " + $0) }
            }
            Output.data(message)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The schedule and the open spots, by start.")
        @OptionGroup var options: KioskOptions
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "Also sessions taken off the schedule.") var all = false

        func run() throws {
            let sessions = try options.query { queries throws(ClientError) in try queries.sessions() }
                .filter { all || !$0.payload.removed }
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            if json { return try Output.json(sessions.map { SessionJSON($0, nowMillis: now) }) }
            if sessions.isEmpty { return Output.line("No sessions.") }
            for session in sessions { Output.data(SessionJSON(session, nowMillis: now).line) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a session off the schedule; organizer key.")
        @OptionGroup var options: KioskOptions
        @OptionGroup var organizer: OrganizerOptions
        @Argument(help: "The session's name.") var name: String

        func run() throws {
            Output.data(
                try organizer.perform(on: options) { actions throws(ClientError) in
                    try actions.removeSession(named: name)
                }
            )
        }
    }

    struct ImportSchedule: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Add the sessions of a CSV schedule (session,zone,start,end[,capacity,registered_only]).",
            discussion: "All or nothing: a line that cannot be read names its line and adds no session."
        )
        @OptionGroup var options: KioskOptions
        @OptionGroup var organizer: OrganizerOptions
        @Argument(help: "CSV file.") var file: String
        @Flag(help: "Add them even if an enrolled kiosk cannot read sessions.") var force = false

        func run() throws {
            let message = try organizer.perform(on: options) { actions throws(ClientError) in
                try actions.addSessions(try SessionFiles.schedule(file), force: force) { Output.note("warning: " + $0) }
            }
            Output.data(message)
        }
    }

    struct RegisterAttendees: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register",
            abstract: "Register attendees for sessions from a CSV file (session,email); organizer key.",
            discussion: "pretix's and Eventbrite's exports work as they are (product or ticket type, and email)."
        )
        @OptionGroup var options: KioskOptions
        @OptionGroup var organizer: OrganizerOptions
        @Argument(help: "CSV file.") var file: String
        @Option(help: "Campaign (default: the locked one).") var campaign: String?

        func run() throws {
            Output.data(
                try organizer.perform(on: options) { actions throws(ClientError) in
                    try actions.registerForSessions(file, campaign: campaign)
                }
            )
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The host's live list: who joined and left, as each kiosk's scans arrive (staff only).",
            discussion: "Prints who is in so far, then one line per join or leave until interrupted."
        )
        @OptionGroup var options: KioskOptions
        @Argument(help: "The session's (or spot's) name.") var name: String
        @Option(help: "Campaign (default: the locked one).") var campaign: String?
        @Flag(help: "One JSON object per line.") var json = false

        func run() throws {
            let context = try options.context()
            let queries = StaffQueries(context)
            let session = try guarded { () throws(ClientError) in try queries.session(named: name) }
            var watch = SessionWatch()
            while true {
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let lines = try guarded { () throws(ClientError) in
                    try queries.attendance(campaign: campaign, session: session.id, nowMillis: now)
                }
                for event in watch.update(lines, nowMillis: now) {
                    if json {
                        Output.raw(String(decoding: try SessionWatch.jsonLine(event), as: UTF8.self) + "\n")
                    } else {
                        Output.data(event.line)
                    }
                }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }
}

/// A host opens a check-in spot at this kiosk (issue 36).
struct SpotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spot",
        abstract: "Check-in spots: a session that starts now, with a time limit and a six-digit code.",
        subcommands: [Open.self]
    )

    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a spot at this kiosk: its six-digit code works at any kiosk of this zone until it closes.",
            discussion:
                "Attendees type the code, then their email or ticket code; outside this zone, after the time or with another code they are refused (wrong_zone, spot_closed, wrong_code)."
        )
        @OptionGroup var options: KioskOptions
        @Argument(help: "The spot's name.") var name: String
        @Option(name: .customLong("for"), help: "How long it stays open: 10m, 1h, 90s (at most 4h).") var duration =
            "10m"
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let millis = try guarded { () throws(ClientError) in try ArrivalsReport.bucketMillis(duration) }
            let context = try options.context()
            let response = try guarded { () throws(ClientError) in
                try context.exchange(.openSpot(name: name, seconds: Int(millis / 1_000)))
            }
            if json { return try Output.json(response) }
            guard case .spotOpened(let spot) = response else {
                Output.error(OneShotText.describe(response))
                throw ExitCode(1)
            }
            Output.data(OneShotText.describe(response))
            for line in BlockLetters.lines(spot.code) { Output.line(line) }
        }
    }
}

struct Attend: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record an attendee entering the session open here (or leaving it when already in).",
        discussion:
            "With --code, the open spot that has that code. A plain `muster checkin` at a kiosk whose zone follows a schedule does the same."
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "Email or ticket code.") var query: String
    @Option(help: "A spot's six-digit code.") var code: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws { try OneShot.perform(.attend(query: query, code: code), options: options, json: json) }
}
