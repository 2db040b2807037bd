import ArgumentParser
import Foundation
import MusterAttendeeList
import MusterClient
import MusterPretix

/// Where the pretix is: the options `import --from-pretix`, `push pretix` and `export pretix-redeem`
/// share (`--list` alone for the export, which talks to no pretix).
struct PretixOptions: ParsableArguments {
    @Option(help: "pretix's organizer (its short name in URLs).") var organizer: String?
    @Option(help: "pretix's event (its short name in URLs).") var event: String?
    @Option(help: "The id of pretix's check-in list.") var list: Int?
    @Option(
        name: .customLong("token-file"),
        help: "A file holding a pretix team API token (mode 600: it writes check-ins)."
    )
    var tokenFile: String?

    /// The pretix at `url`, with every option it needs, or a usage error naming the missing ones.
    func target(_ url: String) throws -> PretixTarget {
        let missing = [
            organizer == nil ? "--organizer" : nil, event == nil ? "--event" : nil, list == nil ? "--list" : nil,
            tokenFile == nil ? "--token-file" : nil,
        ].compactMap { $0 }
        guard missing.isEmpty, let organizer, let event, let list, let tokenFile else {
            throw ValidationError("pretix needs \(missing.joined(separator: ", "))")
        }
        guard let base = URL(string: url), let scheme = base.scheme, ["http", "https"].contains(scheme) else {
            throw ValidationError("'\(url)' is not a pretix URL (http:// or https://)")
        }
        return PretixTarget(
            url: base,
            organizer: organizer,
            event: event,
            list: list,
            token: try pretix { () throws(PretixError) in try PretixTarget.token(fromFile: tokenFile) }
        )
    }
}

/// Runs a pretix exchange, turning its error into words on stderr and exit code 5 (a peer refused).
func pretix<T>(_ body: () throws(PretixError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        Output.error("muster: \(error.description)")
        throw ExitCode(5)
    }
}

struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload the doors' check-ins and check-outs to the ticketing system.",
        subcommands: [PushPretix.self]
    )
}

struct PushPretix: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pretix",
        abstract: "Upload every check-in and check-out of pretix tickets through pretix's check-in API.",
        discussion: """
            Each scan goes to POST /api/v1/organizers/ORG/checkinrpc/redeem/ with the door's time, entry or \
            exit, force (the door's offline decision stands) and the delta's hash as the nonce, so pushing \
            again (from this kiosk or another) adds nothing. Walk-ins have no pretix ticket and are not sent.
            """
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "pretix's URL, e.g. https://pretix.eu") var url: String
    @OptionGroup var pretixOptions: PretixOptions
    @Option(help: "Campaign (default: the locked one).") var campaign: String?

    func run() throws {
        let target = try pretixOptions.target(url)
        let entries = try options.query { queries throws(ClientError) in try queries.log(campaign: campaign) }
        let scans = PretixRedeem.scans(entries, list: target.list)
        let report = try pretix { () throws(PretixError) in try PretixClient(target).push(scans) }
        Output.data(
            "Sent \(scans.count) scan(s) to \(target): \(report.accepted) taken (a scan pretix already holds "
                + "under its nonce is taken again and recorded once), \(report.refused.count) refused."
        )
        for refusal in report.refused {
            Output.data("  \(refusal.scan.type) at \(refusal.scan.datetime): HTTP \(refusal.status) \(refusal.reason)")
        }
        if !report.refused.isEmpty { throw ExitCode(4) }
    }
}
