import Foundation
import MusterControl
import MusterTestSupport
import MusterTime
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

    /// What the screen's user was answered for lines it may not send, or that name no attendee it has
    /// just checked in, recorded the same way.
    static let incompleteFromTheScreen: [(line: String, answer: String)] = [
        (
            #"{"op":"checkout"}"#,
            #"{"errorCode":"forbidden","message":"the kiosk screen's user may not send 'checkout'; staff commands run as user muster","outcome":"error"}"#
        ),
        (
            #"{"op":"head","author":"zz"}"#,
            #"{"errorCode":"forbidden","message":"the kiosk screen's user may not send 'head'; staff commands run as user muster","outcome":"error"}"#
        ),
        (
            #"{"op":"note","text":"x"}"#,
            #"{"errorCode":"forbidden","message":"the kiosk screen may add a note or badge only for the attendee it has just checked in","outcome":"error"}"#
        ),
        (
            #"{"op":"badge"}"#,
            #"{"errorCode":"forbidden","message":"the kiosk screen may add a note or badge only for the attendee it has just checked in","outcome":"error"}"#
        ),
        (
            #"{"op":"badge","attendeeKey":"ada@example.com","badgeReason":"x"}"#,
            #"{"errorCode":"forbidden","message":"the kiosk screen's user may not send 'badge'; staff commands run as user muster","outcome":"error"}"#
        ),
        (#"{"op":"lookup"}"#, #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#),
        (#"{"op":"checkin","query":" "}"#, #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#),
    ]

    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A control server of `fixture`'s handler, not listening: its lines are fed to it directly.
    static func server(_ fixture: HandlerFixture) -> ControlServer {
        ControlServer(
            path: fixture.directory.file("control.sock"),
            handler: fixture.handler,
            gate: ControlGate(
                roles: ControlPeerRoles(staffUIDs: [0], staffGID: nil, screenUID: 105),
                throttle: LookupThrottle.Settings(screen: ScreenOptions()),
                time: ManualClock()
            ),
            logger: TestSupport.quietLogger,
            onListening: {}
        )
    }

    @Test func incompleteRequestsAreAnsweredAsBefore() async throws {
        let fixture = try HandlerFixture()
        let server = Self.server(fixture)
        var session = ControlServer.Session(peer: nil, role: .staff)
        for (line, answer) in Self.incomplete {
            let reply = await server.reply(to: Array(line.utf8), session: &session)
            #expect(try Self.line(reply.answer) == answer, "\(line)")
            #expect(!reply.closes, "\(line): an incomplete request keeps the connection")
        }
    }

    @Test func incompleteRequestsFromTheScreenAreRefusedAsBefore() async throws {
        let fixture = try HandlerFixture()
        let server = Self.server(fixture)
        var session = ControlServer.Session(peer: nil, role: .screen)
        for (line, answer) in Self.incompleteFromTheScreen {
            let reply = await server.reply(to: Array(line.utf8), session: &session)
            #expect(try Self.line(ScreenAnswer(reply.answer, handles: .test)) == answer, "\(line)")
            #expect(!reply.closes)
        }
    }

    @Test func malformedLinesEndTheConnection() async throws {
        let fixture = try HandlerFixture()
        let server = Self.server(fixture)
        for role in [ControlPeerRole.staff, .screen] {
            var session = ControlServer.Session(peer: nil, role: role)
            for line in Self.malformed {
                let reply = await server.reply(to: Array(line.utf8), session: &session)
                #expect(reply.closes, "\(line)")
                #expect(
                    try Self.line(reply.answer)
                        == #"{"errorCode":"bad_request","message":"malformed control request","outcome":"error"}"#
                )
            }
        }
    }
}
