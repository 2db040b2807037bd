import ArgumentParser
import Foundation
import MusterClient
import MusterControl

struct Kiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The self check-in screen (line mode: keyboard, USB scanner or pipe). Ends only at end of input."
    )
    @OptionGroup var options: KioskOptions

    func run() throws {
        // Only the config and the control socket: the public screen reads no replica, key or venue file.
        let config = try options.kioskConfig()
        KioskSession.protectTerminal()
        let input = LineInput()
        KioskSession(
            config: config,
            control: ControlClient(path: config.controlSocket),
            readLine: { input.readLine() },
            waitForInput: { input.waitForLine(timeoutMillis: $0) },
            clearsTerminal: isatty(STDOUT_FILENO) == 1,
            write: { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        ).run()
    }
}

struct Lookup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find one attendee of the locked campaign by exact email or ticket code."
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "Email or ticket code.") var query: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let record = try options.query { queries throws(ClientError) in try queries.lookup(query) }
        if json { try Output.json(AttendeeJSON(record)) } else { StaffQueries.print(record) }
    }
}

/// The arguments of the one-shot commands that name one attendee.
struct AttendeeQuery: ParsableArguments {
    @OptionGroup var options: KioskOptions
    @Argument(help: "Email or ticket code.") var query: String
    @Flag(help: "Print JSON.") var json = false

    /// Sends the request `make` makes of the attendee's query.
    func perform(_ make: (String) -> ControlRequest) throws {
        try OneShot.perform(make(query), options: options, json: json)
    }
}

struct CheckIn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin",
        abstract: "Check an attendee in by email or ticket code."
    )
    @OptionGroup var arguments: AttendeeQuery

    @Flag(
        help: ArgumentHelp(
            "Admit an attention ticket after a member of staff has seen the attendee.",
            discussion:
                "Every other door rule still holds; a note records who confirmed (--staff, else your user name)."
        )
    )
    var confirm = false
    @Option(help: "Who confirmed (with --confirm); default: your user name.") var staff: String?
    @Flag(
        help: ArgumentHelp(
            "Check in the whole order (party) of the attendee QUERY names, or of the order code QUERY.",
            discussion: "Each member not inside is judged by the door's rules on their own; who was refused is listed."
        )
    )
    var party = false

    func validate() throws {
        if party && confirm { throw ValidationError("--party and --confirm: confirm attention tickets one by one") }
    }

    func run() throws {
        let who = staff ?? ProcessInfo.processInfo.environment["SUDO_USER"] ?? ProcessInfo.processInfo.userName
        try arguments.perform { query in
            if party { return .checkInParty(query: query) }
            return confirm ? .confirmCheckIn(query: query, staff: who) : .checkIn(query: query)
        }
    }
}

struct Redeem: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hand out an add-on the attendee's ticket carries (a T-shirt, a dinner), once venue-wide.",
        discussion: """
            ADDON is named as the attendee list names it (case is ignored). Refused with already_redeemed \
            (when and where it went out), addon_not_bought, or wrong_desk when the lock hands it out at \
            another zone's desks only. Two desks cut off from each other can both hand it out: both records \
            stay, and `muster report conflicts` lists the double as redeemed_twice.
            """
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "The add-on, as the list names it.") var addon: String
    @Argument(help: "Email or ticket code.") var query: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws { try OneShot.perform(.redeem(addon: addon, query: query), options: options, json: json) }
}

struct CheckOut: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Check an attendee out (they left the venue)."
    )
    @OptionGroup var arguments: AttendeeQuery

    func run() throws { try arguments.perform { .checkOut(query: $0) } }
}

struct Register: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Register a walk-in as a new lead and check them in.")
    @OptionGroup var options: KioskOptions
    @Option(name: .customLong("first")) var firstName: String
    @Option(name: .customLong("last")) var lastName: String
    @Option var email: String
    @Option var company: String = ""
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let walkIn = WalkInRegistration(firstName: firstName, lastName: lastName, email: email, company: company)
        try OneShot.perform(.register(walkIn), options: options, json: json)
    }
}

/// Sends one kiosk write and reports it with the documented exit code.
enum OneShot {
    static func perform(_ request: ControlRequest, options: KioskOptions, json: Bool) throws {
        let context = try options.context()
        let response = try guarded { () throws(ClientError) in try context.exchange(request) }
        if json { try Output.json(response) } else { Output.data(OneShotText.describe(response)) }
        if let code = OneShotText.exitCode(response.outcome), code != 0 { throw ExitCode(code) }
    }
}
