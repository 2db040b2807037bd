import Foundation
import MusterControl
import Testing

/// The control protocol's wire as recorded (``RecordedControlLines``): every line reads and writes back
/// exactly, with keys sorted.
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

    @Test(arguments: RecordedControlLines.requests)
    func requestsReadAndWriteBack(_ recorded: String) throws {
        #expect(try Self.line(Self.read(ControlRequest.self, recorded)) == recorded)
    }

    @Test(arguments: RecordedControlLines.scriptRequests)
    func scriptLinesRead(_ recorded: String) throws {
        _ = try Self.read(ControlRequest.self, recorded)
    }

    @Test(arguments: RecordedControlLines.responses + [RecordedControlLines.changedResponse])
    func responsesReadAndWriteBack(_ recorded: String) throws {
        #expect(try Self.line(Self.read(ControlResponse.self, recorded)) == recorded)
    }

    @Test func screenAnswersReadAndWriteBack() throws {
        for (staff, screen) in RecordedControlLines.screenResponses {
            #expect(try Self.line(Self.read(ControlResponse.self, staff)) == staff)
            #expect(try Self.line(Self.read(ControlResponse.self, screen)) == screen)
        }
    }
}
