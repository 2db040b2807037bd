import Foundation
import MusterTestSupport
import Testing

/// The round trip with a real pretix (issue 35): pretix 2026.8.0 from PyPI on loopback with SQLite
/// (`scripts/pretix-lab`), seeded through its own models with three ticket products (VIP, General,
/// Speaker with check-in attention), a T-shirt add-on, orders of one and of three positions and
/// Unicode names. Three real kiosks import its check-in list through the REST API, check people in
/// through the real commands (a type refused at the VIP door, a party of three, an add-on redeemed
/// twice at two doors, an attention ticket), push every scan back through pretix's check-in API, and
/// pretix's own API then holds exactly Muster's scans at the doors' times; a second push adds none.
///
/// `make interop` (and so `make test`) starts the pretix and runs this suite; the integration run that
/// does not start one skips it.
@Suite(
    "pretix round trip",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["MUSTER_PRETIX_LAB"] != nil, "make interop starts pretix")
)
struct PretixInteropTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The pretix `make interop` started on loopback (`scripts/pretix-lab start`, its directory in
    /// `MUSTER_PRETIX_LAB`) and stops after the test, whatever happened.
    final class Pretix {
        let directory: URL
        let url: String
        let organizer: String
        let event: String
        let list: Int
        let tokenFile: String

        init() throws {
            guard let path = ProcessInfo.processInfo.environment["MUSTER_PRETIX_LAB"] else {
                throw TestFailure("run through make interop, which starts pretix (MUSTER_PRETIX_LAB)")
            }
            directory = URL(fileURLWithPath: path)
            let data = try Data(contentsOf: directory.appendingPathComponent("lab.json"))
            guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let url = json["url"] as? String, let list = json["list"] as? Int,
                let tokenFile = json["token_file"] as? String
            else { throw TestFailure("lab.json of scripts/pretix-lab is not what it writes") }
            self.url = url
            self.list = list
            self.tokenFile = tokenFile
            organizer = json["organizer"] as? String ?? ""
            event = json["event"] as? String ?? ""
        }

        /// The options every pretix command takes.
        var options: [String] {
            [url, "--organizer", organizer, "--event", event, "--list", "\(list)", "--token-file", tokenFile]
        }

        /// Every successful check-in pretix holds: (secret, type, datetime to the millisecond, nonce).
        func checkins() throws -> [Scan] {
            let result = try Self.lab(["checkins", directory.path])
            guard result.status == 0 else { throw TestFailure("pretix-lab checkins: \(result.stderr)") }
            return try result.stdout.split(separator: "\n").compactMap { line in
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["successful"] as? Bool == true
                else { return nil }
                return Scan(
                    secret: object["secret"] as? String ?? "",
                    type: object["type"] as? String ?? "",
                    millis: Scan.millis(object["datetime"] as? String ?? ""),
                    nonce: object["nonce"] as? String ?? ""
                )
            }
        }

        static func lab(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let run = try ToolRun.run(root.appendingPathComponent("scripts/pretix-lab").path, arguments)
            return (run.status, run.output, run.errorOutput)
        }
    }

    /// One scan as both sides can state it.
    struct Scan: Hashable, Comparable {
        let secret: String
        let type: String
        let millis: Int64
        let nonce: String

        static func < (a: Scan, b: Scan) -> Bool { (a.millis, a.nonce) < (b.millis, b.nonce) }

        static func millis(_ text: String) -> Int64 {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? -1
        }
    }

    @Test("import from pretix, check in at three kiosks, push back: pretix holds exactly Muster's scans")
    func roundTrip() throws {
        let pretix = try Pretix()
        let p1 = try freeLoopbackPort()
        let p2 = try freeLoopbackPort()
        let p3 = try freeLoopbackPort()
        let vip = try KioskHarness(
            name: "k1",
            location: "VIP lounge",
            listen: "127.0.0.1:\(p1)",
            staticPeers: ["127.0.0.1:\(p2)", "127.0.0.1:\(p3)"]
        )
        let hall = try KioskHarness(
            name: "k2",
            venueOf: vip,
            listen: "127.0.0.1:\(p2)",
            staticPeers: ["127.0.0.1:\(p1)"]
        )
        let desk = try KioskHarness(
            name: "k3",
            venueOf: vip,
            listen: "127.0.0.1:\(p3)",
            staticPeers: ["127.0.0.1:\(p1)"]
        )
        let all = [vip, hall, desk]
        for kiosk in all { try kiosk.start() }
        defer { for kiosk in all { try? kiosk.stop() } }
        // The import sends ticket details only once every enrolled kiosk says it reads them.
        try waitUntil("k1 holds every kiosk's status", timeout: 30) {
            let fleet = try vip.muster(["fleet", "--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(fleet.utf8)) as? [String: Any]
            let kiosks = object?["kiosks"] as? [[String: Any]] ?? []
            return kiosks.count == 3 && kiosks.allSatisfy { $0["status"] != nil }
        }

        let imported = try vip.muster(
            ["import", "--from-pretix"] + pretix.options + ["--campaign", "Conf", "--organizer-key", vip.organizerKey]
        )
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 6 attendee(s) into 'Conf' (new campaign)"), "\(imported.stdout)")
        #expect(imported.stdout.contains("types: General, Speaker, VIP."))
        #expect(imported.stdout.contains("1 need a member of staff at the door"))
        let locked = try vip.muster([
            "lock", "Conf", "--zone", "VIP lounge,types=VIP", "--zone", "Main entrance,addons=T-shirt",
            "--organizer-key", vip.organizerKey,
        ])
        #expect(locked.status == 0, "\(locked.stderr)")
        try SyncEndToEndTests.waitForEqualDigests(all)

        // What pretix said of each ticket, as staff read it (Unicode names kept).
        let jose = try hall.muster(["lookup", "jose@example.org"]).stdout
        #expect(jose.contains("José Müller") && jose.contains("type: VIP") && jose.contains("add-ons: T-shirt"))
        #expect(try hall.muster(["lookup", "zoe@example.org"]).stdout.contains("Zoë Ångström"))

        // A General ticket at the VIP door; the VIP ticket there.
        let refused = try vip.muster(["checkin", "zoe@example.org", "--json"])
        #expect(refused.status == 4 && refused.stdout.contains("\"reason\" : \"type_not_admitted\""))
        #expect(try vip.muster(["checkin", "jose@example.org"]).status == 0)
        // A party of three: one check-in says two wait, one answer checks them in.
        let ada = try hall.muster(["checkin", "ada@example.org"])
        #expect(ada.status == 0 && ada.stdout.contains("2 more of their order not inside"), "\(ada.stdout)")
        let party = try hall.muster(["checkin", "--party", "ada@example.org"])
        #expect(party.status == 0 && party.stdout.contains("Party: 2 checked in, 0 refused."), "\(party.stdout)")
        // The T-shirt at two desks of the Main entrance: once.
        #expect(try hall.muster(["redeem", "T-shirt", "jose@example.org"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(all)
        let twice = try desk.muster(["redeem", "t-shirt", "jose@example.org", "--json"])
        #expect(twice.status == 4 && twice.stdout.contains("already_redeemed"), "\(twice.stdout)")
        // The speaker's ticket needs staff: refused with the text for staff, then confirmed.
        let speaker = try hall.muster(["checkin", "lukasz@example.org"])
        #expect(speaker.status == 4 && speaker.stdout.contains("Greet: keynote speaker"), "\(speaker.stdout)")
        let confirmed = try hall.muster(["checkin", "--confirm", "--staff", "Grace", "lukasz@example.org"])
        #expect(confirmed.status == 0)
        #expect(try hall.muster(["checkout", "grace@example.org"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(all)

        // What Muster will send: five entries and one exit, the same from every kiosk.
        let exported = try desk.muster(["export", "pretix-redeem", "--list", "\(pretix.list)"])
        let ours = try exported.stdout.split(separator: "\n").map { line -> Scan in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return Scan(
                secret: object["secret"] as? String ?? "",
                type: object["type"] as? String ?? "",
                millis: Scan.millis(object["datetime"] as? String ?? ""),
                nonce: object["nonce"] as? String ?? ""
            )
        }.sorted()
        #expect(ours.count == 6 && ours.filter { $0.type == "exit" }.count == 1, "\(exported.stdout)")
        #expect(try vip.muster(["export", "pretix-redeem", "--list", "\(pretix.list)"]).stdout == exported.stdout)

        let pushed = try desk.muster(["push", "pretix"] + pretix.options)
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        #expect(pushed.stdout.contains("Sent 6 scan(s)") && pushed.stdout.contains("0 refused"))
        let held = try pretix.checkins().sorted()
        #expect(held == ours, "pretix holds exactly Muster's scans, at the doors' times, under their nonces")

        // A second push, from another kiosk: pretix takes each again and records nothing new.
        #expect(try vip.muster(["push", "pretix"] + pretix.options).status == 0)
        #expect(try pretix.checkins().sorted() == held)
    }
}
