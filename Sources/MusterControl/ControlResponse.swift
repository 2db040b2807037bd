public import MusterStore

/// The answer to one ``ControlRequest``.
public struct ControlResponse: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        case checkedIn = "checked_in"
        case alreadyCheckedIn = "already_checked_in"
        case checkedOut = "checked_out"
        case notCheckedIn = "not_checked_in"
        case registered
        case noted
        case notFound = "not_found"
        /// Refused by policy: no lock, outside the window, ticket not valid.
        case refused
        case head
        case submitted
        case status
        case pong
        /// The request could not be carried out (bad request, disk full, invalid deltas).
        case error
        /// `badge`: the job completed on the printer and the badge delta is recorded.
        case badgePrinted = "badge_printed"
        /// `badge`: nothing printed (no printer, queue stopped, job failed); ``message`` says why,
        /// for staff. The check-in stands. The screen sends the attendee to the staff desk.
        case badgeNotPrinted = "badge_not_printed"
        /// `badge` with reason self-service: a badge was already printed for this attendee on
        /// some kiosk; only staff reprint.
        case badgeAlreadyPrinted = "badge_already_printed"
        /// A `lookup` found the attendee (``maskedName``, ``admitted``, and ``checkIn`` if already inside).
        case found
    }

    public var outcome: Outcome
    public var message: String?
    /// Why an ``Outcome/error`` response failed, so a program can tell "disk full" from "bad request"
    /// without reading ``message`` (nil on every other outcome, and from a daemon older than 0.6).
    public var errorCode: ControlErrorCode?
    public var attendee: AttendeeSummary?
    /// The check-in shown for this attendee (the earliest), when there is one.
    public var checkIn: PresenceSummary?
    public var ticket: String?
    public var headSeq: UInt64?
    public var headHash: String?
    public var applied: Int?
    /// For a staged `submit`: how many deltas this connection now holds, not yet applied.
    public var staged: Int?
    public var kioskName: String?
    public var kioskKey: String?
    /// Peers in session: "publickeyhex@address".
    public var peers: [String]?
    /// Each peer in session with how far apart the replicas are (`status` only).
    public var peerDetails: [PeerDetail]?
    /// The venue network key's generation the daemon dials with (`status` only; 0 until a
    /// revocation rotates it).
    public var keyGeneration: UInt64?
    /// Why a door refused a scan: a stable code (`not_found`, `already_inside`, `outside_window`,
    /// `zone_full`, `entries_used_up`, `not_admitted`, `re_entry_refused`, `not_locked`; see
    /// `DoorReason`); ``message`` has the words. nil when admitted, and from daemons before issue 16.
    public var reason: String?
    /// For `badge`: the CUPS job id of the printed badge.
    public var badgeJob: Int?
    /// For `lookup`: the name as the public screen may show it before confirmation ("Ada L.").
    public var maskedName: String?
    /// For `lookup`: whether the ticket is valid for check-in.
    public var admitted: Bool?
    /// For `screen`: the locked campaign's name (nil while the kiosk waits for a lock).
    public var campaignName: String?
    /// With ``ControlErrorCode/rateLimited``: how many seconds until a lookup may be tried again.
    public var retryAfterSeconds: Int?
    /// For `screen`: the language the organizer's lock sets for the screen (an ISO 639 code), nil when it
    /// sets none and from daemons before it could. The screen falls back to its own `[screen] language`
    /// for a code it does not speak.
    public var language: String?

    public init(outcome: Outcome, message: String? = nil) {
        self.outcome = outcome
        self.message = message
    }

    /// An ``Outcome/error`` response: the code for programs, the sentence for people.
    public static func failure(_ code: ControlErrorCode, _ message: String) -> ControlResponse {
        var response = ControlResponse(outcome: .error, message: message)
        response.errorCode = code
        return response
    }
}
