import ArgumentParser
import Foundation
import MusterBadge
import MusterClient
import MusterControl

/// `muster badge …`: the staff desk's badge commands. Printing goes through the daemon (which
/// owns the printer and signs the badge delta); a preview is drawn here, from the replica.
struct Badge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print, reprint, replace or preview an attendee's badge.",
        discussion: """
            Exit codes: 0 printed; 2 not found; 4 refused; 6 not printed (no printer, queue stopped, job \
            failed: the message says why).
            """,
        subcommands: [BadgeReprint.self, BadgePrintOnly.self, BadgeReplace.self, BadgePreviewCommand.self]
    )
}

struct BadgeReprint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reprint",
        abstract: "Print another badge (lost, damaged, misspelt) and record the reprint on every kiosk."
    )
    @OptionGroup var arguments: AttendeeQuery

    func run() throws { try arguments.perform { .badge(BadgeOrder(attendee: .query($0), reason: .reprint)) } }
}

struct BadgePrintOnly: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a badge without checking the attendee in (e.g. for a speaker's pack)."
    )
    @OptionGroup var arguments: AttendeeQuery

    func run() throws { try arguments.perform { .badge(BadgeOrder(attendee: .query($0), reason: .printOnly)) } }
}

struct BadgeReplace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replace",
        abstract:
            "Give a lost or stolen badge's owner a new code and print the new badge; every kiosk refuses the old code.",
        discussion: """
            The attendee is named by email (or by a code of theirs, dead or valid). The new code is signed \
            and committed on this kiosk before the answer and reaches every kiosk with the next sync; a \
            kiosk that has heard of it refuses every other code of the attendee with reason `replaced`. \
            --restore undoes it: the list's code opens the doors again and the replacement's is refused.
            """
    )
    @OptionGroup var arguments: AttendeeQuery
    @Flag(help: "Undo the replacement: give the attendee the list's code back.") var restore = false
    @Flag(name: .customLong("no-print"), help: "Replace the code without printing the new badge.") var noPrint = false
    @Flag(
        help: ArgumentHelp(
            "Replace even if an enrolled kiosk cannot read a replaced badge (its status says so, or it sends none).",
            discussion: "That kiosk stops taking this kiosk's records until it is upgraded."
        )
    )
    var force = false

    func run() throws {
        let context = try arguments.options.context()
        try guarded { () throws(ClientError) in
            try FleetReport.require(
                readableBy: try StaffQueries(context).fleet().unreadable(kinds: [.badgeCode]),
                what: "a replaced badge",
                otherwise: "it then stops taking this kiosk's records until it is upgraded",
                force: force,
                warn: { Output.note("warning: " + $0) }
            )
        }
        let replaced = try guarded { () throws(ClientError) in
            try context.exchange(.replaceBadge(query: arguments.query, restore: restore))
        }
        var answers = [replaced]
        if case .badgeReplaced(let attendee, _) = replaced, !restore, !noPrint {
            let order = BadgeOrder(attendee: .key(attendee.key), reason: .reprint)
            answers.append(try guarded { () throws(ClientError) in try context.exchange(.badge(order)) })
        }
        for answer in answers {
            if arguments.json { try Output.json(answer) } else { Output.data(OneShotText.describe(answer)) }
        }
        if let code = answers.lazy.compactMap({ OneShotText.exitCode($0.outcome) }).first(where: { $0 != 0 }) {
            throw ExitCode(code)
        }
    }
}

struct BadgePreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Render an attendee's badge to a PDF, PNG or ZPL file without printing or recording it."
    )
    @OptionGroup var options: KioskOptions
    @Argument(help: "Email or ticket code.") var query: String
    @Option(name: .long, help: "The file to write: FILE.pdf, FILE.png or FILE.zpl (ZPL for a Zebra).") var out: String

    func run() throws {
        let context = try options.context()
        let rendering = try guarded { () throws(ClientError) in try BadgePreview(context).write(query: query, to: out) }
        for field in rendering.shortened {
            Output.error("the \(field.rawValue) did not fit and was shortened with an ellipsis")
        }
        for field in rendering.missingGlyphs {
            Output.error("the \(field.rawValue) has characters no installed font can draw")
        }
        Output.data(out)
    }
}
