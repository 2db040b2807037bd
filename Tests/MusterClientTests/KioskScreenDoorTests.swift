import MusterControl
import MusterCore
import Testing

@testable import MusterClient

/// A door rule's refusal (issue 16) reaches the public screen as a stable reason code, and the screen
/// says it in the attendee's language, not the daemon's English.
@Suite("KioskScreen: door refusals")
struct KioskScreenDoorTests {
    typealias Kit = ScreenKit

    /// The screen after a German-speaking attendee confirmed and the daemon refused with `reason`.
    static func refused(_ reason: DoorReason, language: String = "de") -> [KioskScreen.Action] {
        var screen = Kit.screen()
        _ = screen.handle(.started)
        _ = screen.handle(.line(language))
        _ = screen.handle(.line("ada@example.com"))
        _ = screen.handle(.lookedUp(.found(Kit.ada())))
        _ = screen.handle(.line("ja"))
        return screen.handle(.answered(Kit.refused("This area is full right now.", reason: reason)))
    }

    @Test(arguments: [DoorReason.alreadyInside, .outsideWindow, .zoneFull, .entriesUsedUp, .reEntryRefused])
    func aRefusalIsSaidInTheAttendeesLanguage(reason: DoorReason) {
        let actions = Self.refused(reason)
        let german = KioskCatalog.text(.doorRefused(reason), in: .german)
        #expect(actions.contains(.show(german)))
        #expect(german != KioskCatalog.text(.doorRefused(reason), in: .english))
        // The daemon's English words are not shown to the attendee.
        #expect(!actions.contains { if case .show(let line) = $0 { line.contains("area is full") } else { false } })
    }

    /// Every reason has words in every language, and no two reasons share them.
    @Test func everyReasonIsTranslated() {
        for language in ScreenLanguage.allCases {
            let lines = DoorReason.allCases.map { KioskCatalog.text(.doorRefused($0), in: language) }
            #expect(lines.allSatisfy { !$0.isEmpty })
            #expect(Set(lines).count == lines.count, "\(language)")
        }
    }

    /// An answer without a reason code (an older daemon) still shows its words, as before.
    @Test func aRefusalWithoutACodeKeepsTheDaemonsWords() {
        var screen = Kit.screen()
        _ = screen.handle(.started)
        _ = screen.handle(.line("ada@example.com"))
        _ = screen.handle(.lookedUp(.found(Kit.ada())))
        _ = screen.handle(.line("y"))
        let actions = screen.handle(.answered(Kit.refused("Closed today.")))
        #expect(actions.contains(.show(KioskCatalog.text(.refused(detail: "Closed today."), in: .english))))
    }
}
