import Foundation
import MusterCore
import Testing

@testable import MusterAttendeeList

/// An import error quotes values from the file, and the file may hold anything. The organizer must
/// still read the whole sentence, "nothing was imported" included: a value is made safe where it is
/// quoted, so an escape sequence in it (an OSC left open swallows everything up to its terminator)
/// cannot eat the words after it when the composed message is printed.
@Suite("Import errors quote hostile values safely")
struct AttendeeListErrorTextTests {
    /// An operating-system command (set the window title) that is never terminated.
    static let openOSC = "\u{1B}]0;pwned"

    static func error(_ text: String) -> AttendeeListError? {
        do {
            _ = try AttendeeListImport.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a value with an unterminated OSC leaves the rest of the message readable",
        arguments: [
            ("email,first_name\nada\(openOSC)@,Ada\n", "correct or delete this row and import again"),
            ("email,colour\(openOSC),size\nada@example.com,red,L\n", "and ticket"),
            ("email,first_name\nbob\u{1B}Pq#0;pwned@,Bob\n", "correct or delete this row and import again"),
        ]
    )
    func valueCannotSwallowTheMessage(file: String, ending: String) throws {
        let error = try #require(Self.error(file))
        let message = "attendees.csv: \(error.description); nothing was imported"
        #expect(!error.description.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(error.description)")
        let printed = TerminalText.sanitize(message, maxCharacters: 2_000)
        #expect(printed.contains(ending), "\(printed)")
        #expect(printed.hasSuffix("; nothing was imported"), "\(printed)")
    }
}
