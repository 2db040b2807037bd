/// The field names of a response line: the wire format, in one place, for staff's answers
/// (``ControlResponse``) and the public screen's (``ScreenAnswer``). Add names, never rename them.
public enum ControlResponseKey: String, CodingKey, Sendable {
    case outcome
    case message
    case errorCode
    case attendee
    case checkIn
    case ticket
    /// `redeemed`: the add-on handed out (issue 35).
    case addon
    /// `checked_in`: how many others of the attendee's order are not inside yet (issue 35).
    case party
    /// `party_checked_in`: for staff, who of the order went in and who was refused; for everyone, how many.
    case partyAdmitted
    case partyRefused
    case partyAdmittedCount
    case partyRefusedCount
    case headSeq
    case headHash
    case applied
    case staged
    case kioskName
    case kioskKey
    case peers
    case peerDetails
    case keyGeneration
    /// A door's refusal: a ``MusterCore/DoorReason`` code.
    case reason
    case badgeJob
    /// The peer whose printer printed the badge (`[badge] fallback`).
    case badgePrintedAt
    case maskedName
    case admitted
    case campaignName
    case retryAfterSeconds
    /// The lock's language for the screen: an ISO 639 code.
    case language
    /// This kiosk works alone (``MusterRules/Solitude``): since when, and its zone if only that is unheard.
    case solitude
    /// When each peer kiosk was last heard this run (``StatusAnswer/heardMillis``).
    case heardMillis
    /// Every kiosk's newest signed status (``StatusAnswer/fleet``).
    case fleet
    /// `attended`, `spot_opened`, the screen's context: the session's name (issue 36).
    case session
    case sessionID
    /// `attended`: `entered` or `left`.
    case direction
    /// `spot_opened`: the spot's six digits; `zone`, `untilMillis`: where and until when it is open.
    case spotCode
    case zone
    case untilMillis
    /// The screen's context: this kiosk's zone follows a schedule of sessions, and a spot is open in it.
    case sessionDoor
    case spotOpen
}
