/// What a delta does. The raw values are part of the signed encoding and never change meaning.
public enum DeltaKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case campaign = 1
    case attendee = 2
    case lock = 3
    case checkIn = 4
    case checkOut = 5
    case registration = 6
    case note = 7
    case undo = 8
    case enroll = 9
    case revoke = 10
    /// A printed badge (issue 15): the reprint guard every kiosk shares.
    case badge = 11
    /// A refused door scan, for the audit (issue 16; 11 is issue 15's, 13 is reserved for a zone plan).
    case scan = 12
    /// A badge's code replaced, or the replacement undone (issue 37): every kiosk refuses a dead code.
    case badgeCode = 14
    /// An add-on handed out (issue 35): once per attendee and add-on, doubles across a partition reported.
    case redemption = 15
    /// A session on the schedule or a check-in spot (issue 36).
    case session = 16
    /// An attendee entering or leaving a session (issue 36).
    case attendance = 17
    /// Attendees registered for a session (issue 36).
    case sessionRegistration = 18

    /// Kinds an organizer device may sign: the organizer's own, and sessions (which kiosks sign only as
    /// spots, ``VenuePolicy/checkSession(_:author:location:)``).
    public var isOrganizerWritable: Bool { isOrganizerOnly || self == .session }

    /// Kinds only the venue's organizer may author; a kiosk signing one is refused everywhere.
    public var isOrganizerOnly: Bool {
        switch self {
        case .campaign, .attendee, .lock, .undo, .enroll, .revoke, .sessionRegistration: true
        case .checkIn, .checkOut, .registration, .note, .badge, .scan, .badgeCode, .redemption, .session, .attendance:
            false
        }
    }

    public var description: String {
        switch self {
        case .campaign: "campaign"
        case .attendee: "attendee"
        case .lock: "lock"
        case .checkIn: "check-in"
        case .checkOut: "check-out"
        case .registration: "registration"
        case .note: "note"
        case .undo: "undo"
        case .enroll: "enroll"
        case .revoke: "revoke"
        case .badge: "badge"
        case .scan: "scan"
        case .badgeCode: "badge-code"
        case .redemption: "redemption"
        case .session: "session"
        case .attendance: "attendance"
        case .sessionRegistration: "session-registration"
        }
    }
}
