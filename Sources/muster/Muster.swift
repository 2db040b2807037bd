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
            Kiosk.self, Lookup.self, CheckIn.self, CheckOut.self, Register.self,
            Campaigns.self, Import.self, Lock.self, Unlock.self, Undo.self, Attendees.self, Search.self, Export.self,
            Status.self, Venue.self, JoinRequestCommand.self, Enroll.self, Join.self, Revoke.self, DoctorCommand.self,
            OccupancyCommand.self, Report.self, Badge.self,
        ]
    )
}

/// Options every command that talks to a kiosk shares.
struct KioskOptions: ParsableArguments {
    @Option(name: .long, help: "musterd config file (default: $MUSTER_CONFIG, then /etc/muster/musterd.toml).")
    var config: String?

    func context() throws -> ClientContext {
        try guarded { () throws(ClientError) in try ClientContext(configPath: config) }
    }

    /// The config alone, for the public kiosk screen, which may read neither the replica nor the venue file.
    func screenConfig() throws -> KioskConfig {
        let path = KioskConfig.resolvePath(config, environment: ProcessInfo.processInfo.environment)
        return try guarded { () throws(ClientError) in
            do {
                return try KioskConfig.load(path: path)
            } catch {
                throw ClientError(.config, describing: error)
            }
        }
    }
}

struct OrganizerOptions: ParsableArguments {
    @Option(name: .customLong("organizer-key"), help: "The organizer's key file (from 'muster venue create').")
    var organizerKey: String
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
