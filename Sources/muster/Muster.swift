import ArgumentParser
import Foundation
import MusterClient
import MusterControl

/// `muster`: the kiosk screen, one-shot kiosk commands and the organizer's commands.
/// Argument parsing only; the work is in MusterClient.
@main
struct Muster: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "muster",
        abstract: "Offline event check-in: kiosk screen and organizer tools.",
        discussion: """
            Exit codes: 0 ok, 1 error, 2 not found, 3 already checked in, 4 refused (no lock, outside the \
            check-in window, ticket not valid), 5 musterd unreachable or no answer (outcome unknown), 64 usage.
            """,
        subcommands: [
            Kiosk.self, Lookup.self, CheckIn.self, Redeem.self, CheckOut.self, Register.self,
            Campaigns.self, Import.self, Push.self, Lock.self, Unlock.self, Undo.self, Attendees.self, Search.self,
            Export.self,
            Status.self, Venue.self, JoinRequestCommand.self, Enroll.self, Join.self, Revoke.self, DoctorCommand.self,
            OccupancyCommand.self, Report.self, Badge.self, Fleet.self, SessionCommand.self, SpotCommand.self,
            Attend.self,
        ]
    )

    /// `muster --config F <command>` works as `muster <command> --config F`: the leading option becomes
    /// `MUSTER_CONFIG`, which every command reads when it has no `--config` of its own (``KioskConfig/resolvePath``).
    static func main() {
        let (path, arguments) = LeadingConfigOption.split(Array(CommandLine.arguments.dropFirst()))
        if let path { setenv("MUSTER_CONFIG", path, 1) }
        main(arguments)
    }
}

/// Options every command that talks to a kiosk shares.
struct KioskOptions: ParsableArguments {
    @Option(name: .long, help: "musterd config file (default: $MUSTER_CONFIG, then /etc/muster/musterd.toml).")
    var config: String?

    func context() throws -> ClientContext {
        try guarded { () throws(ClientError) in try ClientContext(configPath: config) }
    }

    /// The config alone: for the public kiosk screen, which may read neither the replica nor the venue
    /// file, and for the commands of a kiosk that has not joined yet (it has no venue file).
    func kioskConfig() throws -> KioskConfig {
        let path = KioskConfig.resolvePath(config, environment: ProcessInfo.processInfo.environment)
        return try guarded { () throws(ClientError) in try KioskConfig.read(path: path) }
    }

    /// What `read` finds in this kiosk's replica: the body of every staff query.
    func query<Value>(_ read: (StaffQueries) throws(ClientError) -> Value) throws -> Value {
        let context = try context()
        return try guarded { () throws(ClientError) in try read(StaffQueries(context)) }
    }
}

struct OrganizerOptions: ParsableArguments {
    @Option(name: .customLong("organizer-key"), help: "The organizer's key file (from 'muster venue create').")
    var organizerKey: String

    /// Runs `act` with the organizer's key on the replica of the kiosk `options` name: the body of
    /// every organizer command. The key is read (and its passphrase asked for) after the config.
    func perform<Value>(
        on options: KioskOptions,
        _ act: (OrganizerActions) throws(ClientError) -> Value
    ) throws -> Value {
        let context = try options.context()
        return try guarded { () throws(ClientError) in try act(OrganizerActions(context, keyPath: organizerKey)) }
    }
}

/// Runs a command body, turning a ``ClientError`` into a message on stderr and its exit code.
func guarded<T>(_ body: () throws(ClientError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        Output.error(error.message)
        throw ExitCode(error.exitCode)
    }
}
