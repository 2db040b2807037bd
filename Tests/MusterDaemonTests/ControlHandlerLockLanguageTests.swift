import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterDaemon

/// The screen learns the lock's language from the daemon (issue 14): it has no replica of its own.
@Suite("ControlHandler: the lock's language for the screen")
struct ControlHandlerLockLanguageTests {
    func lock(_ f: HandlerFixture, version: UInt64, language: String?) throws -> ControlResponse {
        try f.submit([
            .lock(
                LockPayload(version: version, campaignID: f.campaignID, checkInStatus: "Attended", language: language)
            )
        ])
    }

    @Test func screenAnswersTheLocksLanguage() throws {
        let f = try HandlerFixture(name: "Hall A")
        try f.importAndLock()
        #expect(f.handler.handle(ControlRequest.screen).language == nil, "the first lock sets none")
        #expect(try lock(f, version: 2, language: "de").outcome == .submitted)
        let german = f.handler.handle(ControlRequest.screen)
        #expect(german.outcome == .status && german.language == "de" && german.campaignName == "DevConf 2026")
        #expect(try f.replica.view { try $0.lock() }?.language == "de")
        #expect(try lock(f, version: 3, language: nil).outcome == .submitted)
        #expect(f.handler.handle(ControlRequest.screen).language == nil, "the newest lock wins")
    }

    @Test func anUnlockSaysNoLanguage() throws {
        let f = try HandlerFixture.importedAndLocked()
        _ = try lock(f, version: 2, language: "pl")
        _ = try f.submit([.lock(LockPayload(version: 3, campaignID: nil))])
        let waiting = f.handler.handle(ControlRequest.screen)
        #expect(waiting.campaignName == nil && waiting.language == nil)
    }
}
