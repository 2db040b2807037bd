import ArgumentParser
import Foundation
import MusterAttendeeList
import MusterClient
import MusterPretix
import MusterTime

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import an attendee list (Salesforce, Eventbrite, pretix or email,first_name,last_name,company,ticket)."
    )
    @OptionGroup var options: KioskOptions
    @OptionGroup var organizer: OrganizerOptions
    @Argument(help: "CSV file (or --from-pretix).") var file: String?
    @Option(
        name: .customLong("from-pretix"),
        help:
            "Read the list from pretix's REST API at this URL instead of a file (with --organizer, --event, --list, --token-file)."
    )
    var fromPretix: String?
    @OptionGroup var pretixOptions: PretixOptions
    @Option(help: "Campaign name; created if it does not exist.") var campaign: String
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(
        help: ArgumentHelp(
            "Import ticket details even if an enrolled kiosk cannot read them (its status says so, or it sends none).",
            discussion:
                "That kiosk refuses those attendees, and every later change of the organizer, until it is upgraded."
        )
    )
    var force = false

    func validate() throws {
        guard (file == nil) != (fromPretix == nil) else {
            throw ValidationError("name a CSV file or --from-pretix URL, one of them")
        }
    }

    func run() throws {
        let warn: (String) -> Void = { Output.note("warning: " + $0) }
        var list: AttendeeListImport?
        if let fromPretix {
            let target = try pretixOptions.target(fromPretix)
            list = try pretix { () throws(PretixError) in try PretixClient(target).attendeeList() }
        }
        let summary = try organizer.perform(on: options) { actions throws(ClientError) in
            if let list, let fromPretix {
                return try actions.importList(list, from: fromPretix, campaign: campaign, force: force, warn: warn)
            }
            return try actions.importFile(file ?? "", campaign: campaign, force: force, warn: warn)
        }
        if json { try Output.json(summary) } else { summary.print() }
    }
}

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lock every kiosk to a campaign.")
    @OptionGroup var options: KioskOptions
    @OptionGroup var organizer: OrganizerOptions
    @Argument(help: "Campaign name (or id).") var campaign: String
    @Option(help: "Member status written on check-in (Salesforce campaign member status).") var status = "Responded"
    @Option(help: "Check-in opens at (HH:MM today, or YYYY-MM-DD HH:MM, or ISO 8601).") var opens: String?
    @Option(help: "Check-in closes at.") var closes: String?
    @Option(
        help: ArgumentHelp(
            "A zone: NAME=CAPACITY[,exclusive][,escrow][,opens=TIME][,closes=TIME][,types=A|B][,addons=X|Y] (repeatable).",
            discussion:
                "NAME is the location of the kiosks at its doors; exclusive: entering ends presence elsewhere; escrow: each door admits only its share of the capacity (never over, even partitioned); types: only tickets of these types (the list's ticket type or product) enter; addons: only this zone's desks hand these add-ons out (muster redeem)."
        )
    )
    var zone: [String] = []
    @Option(help: "Entries per attendee per zone: once, unlimited, or a number per day.") var entries: String?
    @Flag(name: .customLong("no-reentry"), help: "Refuse entering a zone again after checking out of it.")
    var noReEntry = false
    @Option(
        help: ArgumentHelp(
            "The language of every kiosk screen (en, de, fr, es, nl, pl).",
            discussion:
                "Overrides each kiosk's [screen] language; an attendee still switches for their own turn. Kiosks older than this option refuse a lock that sets it."
        )
    )
    var language: String?
    @Flag(
        help: ArgumentHelp(
            "Lock even if an enrolled kiosk cannot read this lock (its status says so, or it sends none).",
            discussion: "That kiosk refuses the lock and keeps the one before until it is upgraded."
        )
    )
    var force = false

    func run() throws {
        let message = try organizer.perform(on: options) { actions throws(ClientError) in
            try actions.lock(
                campaign: campaign,
                status: status,
                opens: opens,
                closes: closes,
                rules: try DoorRulesOptions.parse(zones: zone, entries: entries, noReEntry: noReEntry),
                language: language,
                force: force,
                warn: { Output.note("warning: " + $0) }
            )
        }
        Output.data(message)
    }
}

struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Release the lock: kiosks wait for the organizer.")
    @OptionGroup var options: KioskOptions
    @OptionGroup var organizer: OrganizerOptions

    func run() throws {
        let message = try organizer.perform(on: options) { actions throws(ClientError) in try actions.unlock() }
        Output.data(message)
    }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Undo an attendee's check-in (organizer only).")
    @OptionGroup var options: KioskOptions
    @OptionGroup var organizer: OrganizerOptions
    @Argument(help: "Email or ticket code.") var query: String
    @Option(help: "Campaign (default: the locked one).") var campaign: String?

    func run() throws {
        let message = try organizer.perform(on: options) { actions throws(ClientError) in
            try actions.undo(query: query, campaign: campaign)
        }
        Output.data(message)
    }
}

struct Venue: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Venue set-up.",
        subcommands: [Create.self, AddDevice.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a venue: DIR/organizer.key (0600) and DIR/venue.toml (0600, holds the network key)."
        )
        @Option(help: "Directory to write into.") var out: String
        @Option(help: "Venue name.") var name = "Venue"
        @Flag(help: "Protect the organizer key with a passphrase (asked on the terminal, or $MUSTER_PASSPHRASE).")
        var passphrase = false

        func run() throws {
            let paths = try guarded { () throws(ClientError) in
                try VenueSetup.create(directory: out, name: name, withPassphrase: passphrase)
            }
            Output.data("Organizer key: \(paths.key) (keep it safe; needed for import, lock, unlock, undo)")
            // Kiosks never get this file: `muster enroll` seals the network key to each kiosk's own key.
            Output.data(
                "Venue file:    \(paths.venue) (holds the network key; keep it with the organizer key: "
                    + "`muster enroll` gives each kiosk the network key, sealed to that kiosk)"
            )
        }
    }

    struct AddDevice: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-device",
            abstract: "Give another machine (a second laptop, the desk) its own organizer device key.",
            discussion: """
                Writes DIR/organizer.key (the device's key, 0600), DIR/organizer.key.certificate and DIR/venue.toml. \
                Copy DIR to the other machine and pass --organizer-key DIR/organizer.key there: it imports, locks, \
                unlocks, undoes and revokes kiosks on its own chain, so two machines signing during a partition \
                never fork the organizer's chain. Only the organizer key enrolls kiosks and devices and revokes \
                a device.
                """
        )
        @OptionGroup var organizer: OrganizerOptions
        @Option(help: "The organizer's venue file (default: venue.toml beside the organizer key).") var venue: String?
        @Option(help: "The device's name, shown in status and audit.") var name: String
        @Option(help: "Directory to write the device's files into.") var out: String
        @Flag(help: "Protect the device key with a passphrase (asked on the terminal, or $MUSTER_PASSPHRASE).")
        var passphrase = false

        func run() throws {
            let paths = try guarded { () throws(ClientError) in
                try OrganizerDevice.add(
                    name: name,
                    organizerKeyPath: organizer.organizerKey,
                    venuePath: Enrollment.organizerVenuePath(explicit: venue, keyPath: organizer.organizerKey),
                    directory: out,
                    withPassphrase: passphrase,
                    nowMillis: SystemTime().wallMillis
                )
            }
            Output.data("Device key:  \(paths.key) (keep it safe; use it as --organizer-key on that machine)")
            Output.data("Certificate: \(paths.certificate) (keep it beside the key)")
        }
    }
}
