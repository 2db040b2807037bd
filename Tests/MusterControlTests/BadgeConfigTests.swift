import MusterControl
import Testing

/// The badge keys of the config: the printer, the layout, and what the queue is fed.
@Suite("BadgeConfig")
struct BadgeConfigTests {
    @Test func defaultsArePDFWithNoPrinter() throws {
        let badge = try KioskConfig.parse("", file: "empty.toml").badge
        #expect(badge.printer == nil && badge.cupsServer == nil)
        #expect(badge.format == "pdf" && badge.dotsPerInch == 203)
        #expect(badge.size == "62x100" && badge.fields == ["event", "first_name", "last_name", "company", "qr"])
    }

    /// `[badge.types]`: fields per ticket type (issue 35), read as written; a wrong shape is refused.
    @Test func fieldsPerTicketType() throws {
        let text = "[badge]\ntypes = { VIP = [\"type\", \"first_name\"], \"Day pass\" = [\"first_name\"] }\n"
        let badge = try KioskConfig.parse(text, file: "types.toml").badge
        #expect(badge.typeFields == ["VIP": ["type", "first_name"], "Day pass": ["first_name"]])
        #expect(throws: ConfigError.self) {
            try KioskConfig.parse("[badge]\ntypes = { VIP = \"type\" }\n", file: "bad.toml")
        }
    }

    /// A raw Zebra queue: ZPL at the printer's resolution.
    @Test func aZebraQueueTakesZPLAtItsResolution() throws {
        let text = """
            printer = "zebra"
            cups_server = "/run/cups/cups.sock"
            badge = { size = "4x3in", format = "zpl", dpi = 300 }
            """
        let badge = try KioskConfig.parse(text, file: "zebra.toml").badge
        #expect(badge.printer == "zebra" && badge.cupsServer == "/run/cups/cups.sock")
        #expect(badge.size == "4x3in" && badge.format == "zpl" && badge.dotsPerInch == 300)
    }

    /// `[badge] fallback`: a peer prints the self-service badge, so the screen asks for one even without
    /// a queue here.
    @Test func aFallbackPeerMakesTheScreenAskForABadge() throws {
        let badge = try KioskConfig.parse("[badge]\nfallback = \" Desk B \"\n", file: "desk.toml").badge
        #expect(badge.fallback == "Desk B" && badge.printer == nil)
        #expect(badge.printsBadges)
        #expect(try KioskConfig.parse("[badge]\nfallback = \"\"\n", file: "none.toml").badge.printsBadges == false)
        #expect(try KioskConfig.parse("printer = \"badge\"\n", file: "queue.toml").badge.printsBadges)
    }

    @Test(arguments: [
        ("badge = { format = \"png\" }", "'badge.format' must be \"pdf\" or \"zpl\""),
        ("badge = { format = 1 }", "'badge.format' must be \"pdf\" or \"zpl\""),
        ("badge = { dpi = 150 }", "'badge.dpi' must be 203, 300 or 600"),
        ("badge = { colour = \"red\" }", "unknown key 'badge.colour'"),
        ("badge = { fallback = 2 }", "'badge.fallback' must be a string"),
    ])
    func wrongBadgeKeysAreRefusedByName(line: String, expected: String) {
        do {
            _ = try KioskConfig.parse(line, file: "bad.toml")
            Issue.record("'\(line)' was accepted")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }
}
