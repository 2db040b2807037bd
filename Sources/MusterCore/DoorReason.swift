/// Why a door refused a scan: the stable code a program reads (`--json`, the audit export) and the
/// words an attendee reads. The raw values are part of the signed encoding of a ``ScanPayload``
/// and of the control protocol; add cases, never renumber them.
public enum DoorReason: UInt8, ByteEnum, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    public static let wireName = "door reason"

    /// No attendee has this email or ticket code.
    case notFound = 1
    /// Already inside this zone (no check-out since the last entry).
    case alreadyInside = 2
    /// Before the zone's (or the lock's) check-in window opens, or after it closes.
    case outsideWindow = 3
    /// The zone holds its capacity.
    case zoneFull = 4
    /// The attendee used every entry the rules allow.
    case entriesUsedUp = 5
    /// The ticket is refunded or cancelled.
    case notAdmitted = 6
    /// The attendee left this zone and the rules allow no re-entry.
    case reEntryRefused = 7
    /// The kiosk is not locked to an event.
    case notLocked = 8
    /// The code is a replaced badge's (`muster badge replace`): the attendee has a new one.
    case replaced = 9
    /// The zone admits other ticket types (``ZoneRule/types``). Written only under a lock of version
    /// 3 rules, which `muster lock` signs once every kiosk reads it (so every kiosk reads this reason).
    case typeNotAdmitted = 10
    /// Before the ticket's validity begins, or after it ends (``AttendeeDetails``: a day ticket).
    case notValidNow = 11
    /// The ticket needs a person's eye (``AttendeeDetails/attention``) and the door is self-service.
    /// Like ``notValidNow``, only for attendees with details, which `muster import` sends once every
    /// kiosk reads them.
    case needsStaff = 12
    /// An add-on desk (issue 35): the add-on was already handed out to this attendee.
    case alreadyRedeemed = 13
    /// An add-on desk: the ticket carries no such add-on.
    case addonNotBought = 14
    /// An add-on desk: the organizer hands this add-on out at another zone's desks only.
    case wrongDesk = 15
    /// A session door (issue 36): no session of this zone is open now.
    case noSessionNow = 16
    /// A registered-only session: the attendee is not registered for it.
    case notRegistered = 17
    /// A spot's code typed at a kiosk of another zone.
    case wrongZone = 18
    /// A spot's code after its time limit (or before it opened).
    case spotClosed = 19
    /// No open spot has this code.
    case wrongCode = 20
    /// A session's capacity: this door has admitted its share.
    case sessionFull = 21

    /// The stable machine-readable code (`reason` in `--json`, the audit export).
    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .alreadyInside: "already_inside"
        case .outsideWindow: "outside_window"
        case .zoneFull: "zone_full"
        case .entriesUsedUp: "entries_used_up"
        case .notAdmitted: "not_admitted"
        case .reEntryRefused: "re_entry_refused"
        case .notLocked: "not_locked"
        case .replaced: "replaced"
        case .typeNotAdmitted: "type_not_admitted"
        case .notValidNow: "not_valid_now"
        case .needsStaff: "needs_staff"
        case .alreadyRedeemed: "already_redeemed"
        case .addonNotBought: "addon_not_bought"
        case .wrongDesk: "wrong_desk"
        case .noSessionNow: "no_session_now"
        case .notRegistered: "not_registered"
        case .wrongZone: "wrong_zone"
        case .spotClosed: "spot_closed"
        case .wrongCode: "wrong_code"
        case .sessionFull: "session_full"
        }
    }

    public var description: String { code }

    /// The reason for a code, as read back from JSON or an export.
    public init?(code: String) {
        guard let reason = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = reason
    }
}
