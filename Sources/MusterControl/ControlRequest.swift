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
        /// Print the attendee's badge (issue 15): after a self-service check-in, or by staff.
        case badge
        /// The public screen's lookup (issue 14): answers only a masked name, whether the ticket is valid, and
        /// the time of an earlier check-in, so the screen needs no replica and learns nothing it would not show.
        case lookup
        /// The public screen's view of the lock: the campaign's name and why check-in is refused, if it is.
        case screen
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
    /// For `submit` from an organizer device: the device's certificate (an enrollment the organizer
    /// key signed, ``MusterCore/EnrollRole/organizerDevice``), recorded on the roster before its deltas.
    public var certificate: WireDelta?
    /// For `submit`: hold these deltas on this connection instead of applying them. The next `submit` on the same
    /// connection without `stage` applies everything staged and its own deltas in one transaction, so a
    /// submission too large for one request still becomes visible all at once, or not at all.
    public var stage: Bool?
    /// For the `submit` that ends a staged submission: how many deltas were staged before it. The daemon refuses
    /// the submission when it holds a different number (a reconnect lost the stage), instead of applying part.
    public var staged: Int?
    /// For `badge`: why it is printed, a ``MusterCore/BadgePayload/Reason`` description
    /// (`self-service`, the default; `reprint`; `print-only`). The attendee is named by
    /// `attendeeKey` (after a check-in) or `query` (staff).
    public var badgeReason: String?

    public init(op: Operation) { self.op = op }
}
