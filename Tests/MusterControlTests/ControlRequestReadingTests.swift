import MusterControl
import Testing

/// How a line becomes a request, or why it does not: the daemon answers an incomplete request of a known
/// operation as a bad request and keeps the connection, and closes it after anything else.
@Suite("Control protocol: reading a request line")
struct ControlRequestReadingTests {
    static func error(_ line: String) -> ControlRequestError? {
        do {
            _ = try ControlRequest.read(Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"op":"checkin"}"#, ControlRequest.Operation.checkIn, ControlRequestKey.query, "missing query"),
        (#"{"op":"checkin","query":" \t"}"#, .checkIn, .query, "missing query"),
        (#"{"op":"checkout","query":null}"#, .checkOut, .query, "missing query"),
        (#"{"op":"lookup"}"#, .lookup, .query, "missing query"),
        (#"{"op":"note","text":"x"}"#, .note, .attendeeKey, "missing attendeeKey"),
        (#"{"op":"head"}"#, .head, .author, "missing author"),
        (#"{"op":"head","author":"zz"}"#, .head, .author, "author must be a hex public key"),
        (#"{"op":"head","author":"abab"}"#, .head, .author, "author must be a hex public key"),
        (#"{"op":"badge"}"#, .badge, .attendeeKey, "missing attendeeKey or query"),
        (
            #"{"op":"badge","query":"MUS-1","badgeReason":"x"}"#, .badge, .badgeReason,
            "unknown badge reason 'x' (self-service, reprint, print-only)"
        ),
    ])
    func aKnownOperationWithoutWhatItNeedsIsIncomplete(
        line: String,
        operation: ControlRequest.Operation,
        field: ControlRequestKey,
        message: String
    ) throws {
        let error = try #require(Self.error(line))
        #expect(error.code == .incomplete)
        #expect(error.operation == operation)
        #expect(error.field == field)
        #expect(error.message == message)
    }

    @Test func anUnknownOperationIsNoRequest() throws {
        let error = try #require(Self.error(#"{"op":"launch"}"#))
        #expect(error.code == .unknownOperation && error.operation == nil)
    }

    /// A field of the wrong type makes the line no request, whichever operation it names and whether or
    /// not that operation uses the field, as when requests were one struct of optional fields.
    @Test(arguments: [
        #"{"op":5}"#, "[]", "null", "", #"{"query":"x"}"#, #"{"op":"checkin","query":5}"#,
        #"{"op":"checkin","query":"x","deltas":5}"#, #"{"op":"ping","stage":"yes"}"#,
        #"{"op":"status","staged":"2"}"#, #"{"op":"screen","certificate":[]}"#,
    ])
    func aLineThatIsNoRequestIsMalformed(line: String) throws {
        let error = try #require(Self.error(line))
        #expect(error.code == .malformed, "\(line)")
        #expect(error.cause != nil, "the decoder's own error is kept")
    }

    /// Values keep what was typed: the daemon trims and sanitizes where it uses them.
    @Test func valuesAreReadAsTyped() throws {
        #expect(try ControlRequest.read(Array(#"{"op":"lookup","query":" MUS-1 "}"#.utf8)) == .lookup(query: " MUS-1 "))
        let badge = try ControlRequest.read(Array(#"{"op":"badge","attendeeKey":"","query":"MUS-1"}"#.utf8))
        #expect(badge == .badge(BadgeOrder(attendee: .query("MUS-1"))), "an empty key names no one")
    }
}
