import ArgumentParser
import Foundation
import MusterClient
import MusterControl
import MusterTime

struct JoinRequestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join-request",
        abstract: "On a new kiosk: print the request to enroll it (its public key, name and location)."
    )
    @OptionGroup var options: KioskOptions
    @Flag(help: "Print only the request text (no QR code).") var textOnly = false

    func run() throws {
        let config = try options.kioskConfig()
        let (request, text) = try guarded { () throws(ClientError) in try Enrollment.request(config: config) }
        Output.data(
            "Join request for kiosk '\(request.name)' (\(request.location)), key \(request.kiosk.fingerprint)."
        )
        Output.data("Give it to the organizer: muster enroll REQUEST --organizer-key KEY")
        QRPrinter.print(text, textOnly: textOnly)
    }
}

struct Enroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "On the organizer's machine: enroll a kiosk from its join request and print its join bundle."
    )
    @Argument(help: "The join request text, or a file holding it.") var request: String
    @OptionGroup var organizer: OrganizerOptions
    @Option(help: "The organizer's venue file (default: venue.toml beside the organizer key).") var venue: String?
    @Option(help: "Write the bundle to this file (mode 0600) instead of printing it.") var output: String?
    @Flag(help: "Print only the bundle text (no QR code).") var textOnly = false

    func run() throws {
        let bundle = try guarded { () throws(ClientError) in
            let parsed = try JoinRequest.decode(try Enrollment.readArgument(request))
            return (
                parsed,
                try Enrollment.enroll(
                    parsed,
                    organizerKeyPath: organizer.organizerKey,
                    venuePath: Enrollment.organizerVenuePath(explicit: venue, keyPath: organizer.organizerKey),
                    nowMillis: SystemTime().wallMillis
                )
            )
        }
        let text = bundle.1.encode()
        Output.note("Enrolled kiosk '\(bundle.0.name)' (\(bundle.0.location)), key \(bundle.0.kiosk.fingerprint).")
        if let output {
            try guarded { () throws(ClientError) in
                guard
                    FileManager.default.createFile(
                        atPath: output,
                        contents: Data((text + "\n").utf8),
                        attributes: [.posixPermissions: 0o600]
                    )
                else {
                    throw ClientError(.failed, "cannot write \(output)")
                }
            }
            Output.note("Join bundle written to \(output); on the kiosk: muster join \(output)")
            return
        }
        QRPrinter.print(text, textOnly: textOnly)
    }
}

struct Join: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "On the kiosk: install the join bundle the organizer made for it."
    )
    @Argument(help: "The join bundle text, or a file holding it.") var bundle: String
    @OptionGroup var options: KioskOptions
    @Flag(help: "Replace a venue file of another venue.") var force = false

    func run() throws {
        let config = try options.kioskConfig()
        let message = try guarded { () throws(ClientError) in
            try Enrollment.join(JoinBundle.decode(try Enrollment.readArgument(bundle)), config: config, force: force)
        }
        Output.data(message)
    }
}

struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Take a kiosk off the roster (lost or stolen): its later records are refused everywhere, it wipes itself, the network key is rotated."
    )
    @Argument(help: "Kiosk name or key fingerprint.") var kiosk: String
    @OptionGroup var options: KioskOptions
    @OptionGroup var organizer: OrganizerOptions
    @Option(
        help:
            "The organizer's venue file to update with the new network key (default: venue.toml beside the organizer key)."
    )
    var venue: String?
    @Option(
        help:
            "Keep only what the kiosk stamped and this replica received before this time (HH:MM today, YYYY-MM-DD HH:MM, or ISO 8601): later and back-dated records go."
    )
    var before: String?
    @Option(help: "Keep the kiosk's records up to and including this seq (default: the newest this replica holds).")
    var watermark: UInt64?

    func validate() throws {
        if before != nil && watermark != nil {
            throw ValidationError("give --before or --watermark, not both")
        }
        if let before, TimeParsing.millis(before) == nil {
            throw ValidationError("cannot read '\(before)' as a time (HH:MM, YYYY-MM-DD HH:MM or ISO 8601)")
        }
    }

    func run() throws {
        let context = try options.context()
        let chosen: Revocation.Watermark =
            if let watermark {
                .seq(watermark)
            } else if let before, let millis = TimeParsing.millis(before) {
                .before(millis: UInt64(max(0, millis)))
            } else {
                .newest
            }
        let message = try guarded { () throws(ClientError) in
            try Revocation(
                context,
                keyPath: organizer.organizerKey,
                venuePath: Enrollment.organizerVenuePath(explicit: venue, keyPath: organizer.organizerKey)
            ).revoke(kiosk, watermark: chosen)
        }
        // One line per dropped record (Output.data keeps a line to one line).
        for line in message.split(separator: "\n") { Output.data(String(line)) }
    }
}
