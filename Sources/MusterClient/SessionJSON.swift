import MusterCore
public import MusterRules
import MusterTime

/// A session as `muster session list` shows it (staff and organizer; a spot's code included: the host's
/// list, never the public screen).
public struct SessionJSON: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var zone: String
    public var start: String
    public var end: String
    public var capacity: UInt32?
    public var registeredOnly: Bool
    public var code: String?
    public var host: String?
    public var removed: Bool
    /// `open`, `upcoming` or `over` at the time of the listing.
    public var state: String

    public init(_ session: SessionRecord, nowMillis: Int64) {
        let payload = session.payload
        id = payload.id
        name = payload.name
        zone = payload.zone
        start = ClockText.iso8601(millis: payload.startMillis)
        end = ClockText.iso8601(millis: payload.endMillis)
        capacity = payload.capacity
        registeredOnly = payload.registeredOnly
        code = payload.code
        host = session.isSpot ? session.hostName : nil
        removed = payload.removed
        state = session.isOpen(atMillis: nowMillis) ? "open" : (nowMillis < payload.startMillis ? "upcoming" : "over")
    }

    /// One line: "10:00–11:30  Lab  Swift on Linux (30 places, registered only) open".
    public var line: String {
        guard let startMillis = TimeParsing.millis(start), let endMillis = TimeParsing.millis(end) else { return name }
        var traits: [String] = []
        if let capacity { traits.append("\(capacity) places") }
        if registeredOnly { traits.append("registered only") }
        if let code { traits.append("spot, code \(code)" + (host.map { " at \($0)" } ?? "")) }
        if removed { traits.append("removed") }
        return "\(ClockText.dateTime(millis: startMillis))–\(ClockText.time(millis: endMillis))  \(zone)  \(name)"
            + (traits.isEmpty ? "" : " (" + traits.joined(separator: ", ") + ")") + "  \(state)"
    }
}
