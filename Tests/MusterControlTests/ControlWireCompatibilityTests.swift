import Foundation
import MusterControl
import Testing

/// The typed protocol speaks the recorded wire (``RecordedControlLines``, from the code before it): every
/// recorded line reads as the value it means (``RecordedControlValues``), and every value writes exactly
/// the recorded line, compared with keys sorted (the daemon's encoder does not sort them, and unsorted
/// order is not stable from run to run, so no client can depend on it).
@Suite("Control protocol: the recorded wire")
struct ControlWireCompatibilityTests {
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func read<T: Decodable>(_ type: T.Type, _ line: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(line.utf8))
    }

    @Test func everyOperationAndOutcomeIsRecorded() {
        #expect(Set(RecordedControlValues.requests.map(\.operation)) == Set(ControlRequest.Operation.allCases))
        #expect(Set(RecordedControlValues.responses.map(\.outcome)) == Set(ControlResponse.Outcome.allCases))
        #expect(RecordedControlLines.requests.count == RecordedControlValues.requests.count)
        #expect(RecordedControlLines.responses.count == RecordedControlValues.responses.count)
    }

    @Test func requestsReadAsTheirValuesAndWriteTheirLines() throws {
        for (recorded, value) in zip(RecordedControlLines.requests, RecordedControlValues.requests) {
            #expect(try Self.read(ControlRequest.self, recorded) == value, "\(recorded)")
            #expect(try Self.line(value) == recorded)
        }
    }

    @Test func linesWrittenByHandMeanWhatTheySay() throws {
        for (script, meaning) in zip(RecordedControlLines.scriptRequests, RecordedControlLines.scriptMeaning) {
            let request = try Self.read(ControlRequest.self, script)
            #expect(try Self.line(request) == meaning, "\(script)")
            #expect(try Self.read(ControlRequest.self, meaning) == request)
        }
    }

    @Test func responsesReadAsTheirValuesAndWriteTheirLines() throws {
        for (recorded, value) in zip(RecordedControlLines.responses, RecordedControlValues.responses) {
            #expect(try Self.read(ControlResponse.self, recorded) == value, "\(recorded)")
            #expect(try Self.line(value) == recorded)
        }
    }

    /// The one recorded line the typed protocol writes otherwise: an error no longer repeats an attendee.
    @Test func anErrorCarriesNoAttendee() throws {
        let read = try Self.read(ControlResponse.self, RecordedControlLines.changedResponse)
        #expect(read == .failure(.storage, "The badge printed but could not be recorded: disk full"))
        #expect(try Self.line(read) == RecordedControlLines.changedResponseNow)
    }

    /// What the screen's user is told of each answer is the recorded line, except that an attendee is named
    /// by a handle (``ScreenHandles``) where the line had their key, an email; the screen reads it, and reads
    /// staff's whole answer (a screen running as staff) as the recorded line.
    @Test func theScreenIsToldWhatItWasAlwaysToldButTheEmail() throws {
        for (staff, screen) in RecordedControlLines.screenResponses {
            let answer = ScreenAnswer(try Self.read(ControlResponse.self, staff), handles: .test)
            let handled = Self.handled(screen)
            #expect(try Self.line(answer) == handled, "\(staff)")
            #expect(try Self.read(ScreenAnswer.self, handled) == answer)
            #expect(try Self.line(Self.read(ScreenAnswer.self, staff)) == screen)
            if screen.contains("\"key\":") { #expect(!handled.contains("@"), "\(handled)") }
            // And an older client, which reads every answer as staff's, still reads the screen's.
            _ = try Self.read(ControlResponse.self, handled)
        }
    }

    /// `line` with every `"key":"K"` replaced by K's handle.
    static func handled(_ line: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let start = rest.range(of: "\"key\":\"") {
            result += rest[..<start.upperBound]
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            result += ScreenHandles.test.handle(for: String(rest[..<end]))
            rest = rest[end...]
        }
        return result + rest
    }
}
