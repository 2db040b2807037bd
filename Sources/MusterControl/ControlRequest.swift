/// The control socket protocol: one JSON object per line each way, request then response.
///
/// `muster` uses it for every write; reads go straight to the replica. Requests are small flat
/// structs so that a shell script with `socat` can speak it too.
public struct ControlRequest: Codable, Sendable, Equatable {
    public enum Operation: String, Codable, Sendable {
        case checkIn = "checkin"
        case checkOut = "checkout"
        case register
        case note
        case head
        case submit
        case status
        case ping
    }

    public var op: Operation
    /// Email or ticket code, as typed or scanned.
    public var query: String?
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    public var company: String?
    /// For `note`: the attendee key returned by a check-in.
    public var attendeeKey: String?
    public var text: String?
    /// For `head`: the author whose head is asked for (hex public key).
    public var author: String?
    /// For `submit`: signed deltas built by the organizer's `muster`.
    public var deltas: [WireDelta]?

    public init(op: Operation) { self.op = op }
}
