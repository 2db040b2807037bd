import Foundation
import MusterControl
import Testing

@testable import MusterDaemon

/// Lines that name a known operation without what it needs, and lines that are no request at all, as
/// the daemon answered them before the typed protocol (recorded from that code, keys sorted): a known
/// operation is answered and the connection stays open; anything else ends it after
/// `malformed control request`.
@Suite("Control protocol: incomplete and malformed lines")
struct ControlLineCompatibilityTests {
    /// Each line and the answer it got from a daemon without a badge desk, locked to nothing.
    static let incomplete: [(line: String, answer: String)] = [
        (#"{"op":"checkin"}"#, #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#),
        (
            #"{"op":"checkin","query":"  "}"#,
            #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#
        ),
        (#"{"op":"checkout"}"#, #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#),
        (#"{"op":"lookup"}"#, #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#),
        (
            #"{"op":"note","text":"x"}"#,
            #"{"errorCode":"bad_request","message":"missing attendeeKey","outcome":"error"}"#
        ),
        (
            #"{"op":"note","attendeeKey":"ada@example.com"}"#,
            #"{"errorCode":"bad_request","message":"the note is empty","outcome":"error"}"#
        ),
        (#"{"op":"head"}"#, #"{"errorCode":"bad_request","message":"missing author","outcome":"error"}"#),
        (
            #"{"op":"head","author":"zz"}"#,
            #"{"errorCode":"bad_request","message":"author must be a hex public key","outcome":"error"}"#
        ),
        (
            #"{"op":"register"}"#,
            #"{"errorCode":"bad_request","message":"first and last name are required","outcome":"error"}"#
        ),
        (
            #"{"op":"register","firstName":"A","lastName":"B","email":"nope"}"#,
            #"{"errorCode":"bad_request","message":"'nope' is not an email address","outcome":"error"}"#
        ),
        (#"{"op":"submit"}"#, #"{"applied":0,"outcome":"submitted"}"#),
        (
            #"{"op":"submit","deltas":[{"envelope":"zz","signature":"00"}]}"#,
            #"{"errorCode":"bad_request","message":"a submitted delta is malformed","outcome":"error"}"#
        ),
        (
            #"{"op":"badge"}"#,
            #"{"errorCode":"bad_request","message":"this daemon prints no badges (no badge desk)","outcome":"error"}"#
        ),
        (
            #"{"op":"badge","badgeReason":"x"}"#,
            #"{"errorCode":"bad_request","message":"this daemon prints no badges (no badge desk)","outcome":"error"}"#
        ),
    ]

    /// Lines the daemon answers with `malformed control request` before it closes the connection.
    static let malformed: [String] = [
        #"{"op":"launch"}"#,
        #"{"op":5}"#,
        #"[]"#,
        #"null"#,
        #"{"op":"checkin","query":5}"#,
        #"{"query":"x"}"#,
        #"{"op":"submit","stage":"yes"}"#,
    ]

    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func incompleteRequestsAreAnsweredAsBefore() throws {
        let fixture = try HandlerFixture()
        for (line, answer) in Self.incomplete {
            let request = try JSONDecoder().decode(ControlRequest.self, from: Data(line.utf8))
            #expect(try Self.line(fixture.handler.handle(request)) == answer, "\(line)")
        }
    }

    @Test func malformedLinesAreNoRequest() {
        for line in Self.malformed {
            #expect(throws: (any Error).self, "\(line)") {
                try JSONDecoder().decode(ControlRequest.self, from: Data(line.utf8))
            }
        }
    }
}
