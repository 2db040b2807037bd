import Testing

@testable import MusterControl

/// The `[screen]` table of the config: the kiosk screen's language, timeouts and accessibility options.
@Suite("ScreenOptions")
struct ScreenOptionsTests {
    @Test func defaultsAreTheHallwayOnes() throws {
        let options = try KioskConfig.parse("name = \"A\"\n", file: "t.toml").screen
        #expect(options == ScreenOptions())
        #expect(options.language == .english)
        #expect(options.outcomeTimeout == .seconds(15))
        #expect(options.idleTimeout == .seconds(30))
        #expect(!options.bell && !options.largeWelcome)
    }

    @Test func everyKeyIsRead() throws {
        let text = """
            name = "A"
            [screen]
            language = "de"
            outcome_seconds = 5
            idle_seconds = 12
            free_misses = 1
            first_backoff_seconds = 3
            max_backoff_seconds = 30
            miss_memory_seconds = 60
            bell = true
            large_welcome = true
            clear_lines = 50
            columns = 100
            user = "kiosk-screen"
            """
        let options = try KioskConfig.parse(text, file: "t.toml").screen
        #expect(options.language == .german)
        #expect(options.outcomeTimeout == .seconds(5))
        #expect(options.idleTimeout == .seconds(12))
        #expect(options.freeMisses == 1)
        #expect(options.firstBackoff == .seconds(3))
        #expect(options.maxBackoff == .seconds(30))
        #expect(options.missMemory == .seconds(60))
        #expect(options.bell && options.largeWelcome)
        #expect(options.clearLines == 50)
        #expect(options.columns == 100)
        #expect(options.user == "kiosk-screen")
        #expect(ScreenOptions().user == "muster-screen")
    }

    @Test(arguments: [
        ("[screen]\nlanguage = \"xx\"", "'screen.language' must be one of en, de, fr, es, nl, pl"),
        ("[screen]\noutcome_seconds = 0", "'screen.outcome_seconds' must be an integer of at least 1"),
        ("[screen]\nidle_seconds = \"30\"", "'screen.idle_seconds' must be an integer"),
        ("[screen]\nbell = 1", "'screen.bell' must be true or false"),
        ("[screen]\ncolumns = 20", "'screen.columns' must be an integer from 40 to 1000"),
        ("[screen]\nidle_secs = 3", "unknown key 'screen.idle_secs'"),
        ("screen = 3", "'screen' must be a table"),
        ("[screen]\nuser = \"\"", "'screen.user' must be a user name"),
        ("[screen]\nuser = \"root; rm\"", "'screen.user' must be a user name"),
        ("[screen]\nuser = 0", "'screen.user' must be a user name"),
        (
            "[screen]\nfirst_backoff_seconds = 9\nmax_backoff_seconds = 4",
            "'screen.first_backoff_seconds' must not exceed 'screen.max_backoff_seconds'"
        ),
    ])
    func badValuesAreNamed(text: String, message: String) {
        do {
            _ = try KioskConfig.parse(text, file: "t.toml")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func languageCodesAsTyped() {
        #expect(ScreenLanguage(typed: " DE ") == .german)
        #expect(ScreenLanguage(typed: "pl") == .polish)
        #expect(ScreenLanguage(typed: "deutsch") == nil)
        #expect(
            ScreenLanguage.allCases.map(\.nativeName) == [
                "English", "Deutsch", "Français", "Español", "Nederlands", "Polski",
            ]
        )
    }
}
