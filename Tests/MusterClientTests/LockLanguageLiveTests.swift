import Foundation
import MusterControl
import MusterCore
import MusterDaemon
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

/// `muster lock --language` end to end against a live in-process daemon (issue 14): the organizer's
/// lock carries the language, the daemon tells the screen, and the screen speaks it.
@Suite("Lock language (live daemon)")
struct LockLanguageLiveTests {
    static func lock(_ daemon: LiveDaemon, language: String?) async throws -> Result<String, ClientError> {
        let configPath = daemon.configPath
        let organizer = daemon.organizer
        return try await TestSupport.blocking {
            let client = try ClientContext(configPath: configPath, environment: [:])
            let actions = try OrganizerActions(client, organizer: organizer)
            return Result { () throws(ClientError) in
                try actions.lock(
                    campaign: "DevConf 2026",
                    status: "Attended",
                    opens: nil,
                    closes: nil,
                    language: language
                )
            }
        }
    }

    @Test func theScreenSpeaksTheLocksLanguage() async throws {
        let daemon = try LiveDaemon(name: "Hall A")
        try await daemon.start()
        try await daemon.importAndLock()
        let message = try await Self.lock(daemon, language: "de").get()
        #expect(message.contains("screens in Deutsch (de)"))
        #expect(try daemon.replica.view { try $0.lock() }?.language == "de")

        let lines = ["nobody@example.com", "fr", "nobody@example.com"]
        let output = try await runKiosk(configPath: daemon.configPath, lines: lines)
        #expect(output.contains(KioskCatalog.text(.mainPrompt, in: .german)))
        #expect(output.contains(KioskCatalog.text(.notFound, in: .german)))
        #expect(output.contains(KioskCatalog.text(.notFound, in: .french)), "the attendee's own choice wins")
        #expect(!output.contains(KioskCatalog.text(.mainPrompt, in: .english)))
    }

    @Test func anUnknownLanguageIsRefusedBeforeAnythingIsSigned() async throws {
        let daemon = try await LiveDaemon.importedAndLocked()
        let head = try daemon.replica.head(of: daemon.venue.organizer)
        let result = try await Self.lock(daemon, language: "xx")
        guard case .failure(let error) = result else {
            Issue.record("locked with language xx")
            return
        }
        #expect(error.code == .usage)
        #expect(
            error.message == "--language 'xx' is not a language the kiosk screen speaks (one of en, de, fr, es, nl, pl)"
        )
        #expect(try daemon.replica.head(of: daemon.venue.organizer) == head, "nothing was submitted")
        #expect(try daemon.replica.view { try $0.lock() }?.version == 1)
    }
}
