import Foundation
import MusterControl
import MusterCore
import Testing

@testable import MusterClient

/// What the screen sends for a walk-in fits the screen's line (musterd's `ControlLimits.screenLineBytes`,
/// 4 KiB: a longer line closes the connection), whatever was typed.
@Suite("Walk-in line")
struct WalkInLineTests {
    static let screenLineBytes = 4 * 1024

    @Test func aWalkInTypedPastEveryLimitStillFitsTheScreensLine() throws {
        // Four-byte scalars, escapes and controls, far past every field's limit.
        let flood = String(repeating: "𝔄\u{1B}[2J\u{7}\"/", count: 2_000)
        var draft = KioskScreen.Draft()
        draft.firstName = flood
        draft.lastName = flood
        draft.company = flood
        draft.email = String(repeating: "é", count: 5_000) + "@example.com"
        let walkIn = KioskSession.walkIn(draft)
        let line = try JSONEncoder().encode(ControlRequest.register(walkIn))
        #expect(line.count + 1 <= Self.screenLineBytes, "\(line.count) bytes")
        #expect(walkIn.firstName.unicodeScalars.count <= Limits.maxStoredFieldCharacters)
        #expect(!walkIn.firstName.contains("\u{1B}"))
        // An email too long to be one is cut, not made into another plausible one.
        #expect(!EmailAddress.isPlausible(walkIn.email))
    }

    @Test func anOrdinaryWalkInIsSentAsTyped() {
        var draft = KioskScreen.Draft()
        draft.firstName = "Linus"
        draft.lastName = "Walker"
        draft.company = "Kernel Co"
        draft.email = "linus@walkin.example"
        let walkIn = KioskSession.walkIn(draft)
        #expect(
            walkIn
                == WalkInRegistration(
                    firstName: "Linus",
                    lastName: "Walker",
                    email: "linus@walkin.example",
                    company: "Kernel Co"
                )
        )
    }
}
