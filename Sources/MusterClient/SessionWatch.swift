import Foundation
import MusterCore
import MusterRules
import MusterTime

/// The host's live list (`muster session watch`, issue 36): each time it is given the session's lines,
/// the joins and leaves that are new since the last time, so a loop that reads the replica a few times
/// a second prints each as the deltas arrive from any kiosk of the room.
public struct SessionWatch {
    public struct Event: Sendable, Equatable, Encodable {
        /// `joined` or `left`.
        public var event: String
        public var session: String
        public var name: String
        public var email: String
        public var at: String
        public var minutes: Int64

        /// "10:02:13  joined  Ada Lovelace <ada@example.com>".
        public var line: String {
            let time = TimeParsing.millis(at).map { ClockText.time(millis: $0) } ?? at
            return "\(time)  \(event)  \(name.isEmpty ? email : "\(name) <\(email)>")"
                + (event == "left" ? "  (\(minutes) min)" : "")
        }
    }

    /// What was shown of each person: their first entry and their last leave.
    var shown: [String: (inMillis: Int64?, outMillis: Int64?)] = [:]

    public init() {}

    /// `nowMillis`: when the lines were read; a return after leaving is dated by it, since a line keeps
    /// only the first entry and the last leave.
    public mutating func update(_ lines: [SessionAttendance], nowMillis: Int64) -> [Event] {
        var events: [Event] = []
        for item in lines where item.line.inMillis != nil {
            let key = item.line.attendeeKey
            let before = shown[key]
            let event = { (kind: String, millis: Int64) in
                Event(
                    event: kind,
                    session: item.session.name,
                    name: item.attendee?.displayName ?? "",
                    email: item.attendee?.email ?? key,
                    at: ClockText.iso8601(millis: millis),
                    minutes: item.line.minutes
                )
            }
            if before == nil, let entered = item.line.inMillis { events.append(event("joined", entered)) }
            if let out = item.line.outMillis, before?.outMillis != out { events.append(event("left", out)) }
            if item.line.outMillis == nil, before?.outMillis != nil { events.append(event("joined", nowMillis)) }
            shown[key] = (item.line.inMillis, item.line.outMillis)
        }
        return events
    }

    /// One compact JSON object, terminal-safe.
    public static func jsonLine(_ event: Event) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return TerminalSafeJSON.escape(try encoder.encode(event))
    }
}
