public import MusterControl
public import MusterRules

/// What a test reads of an answer, whichever outcome carries it: a test asks "did the answer name Ada,
/// and when", and says which outcome it expects separately (`outcome`). The front ends switch on the
/// cases instead; these are for assertions only, and nil where the outcome has no such field.
extension ControlResponse {
    public var attendee: AttendeeSummary? {
        switch self {
        case .checkedIn(let answer): answer.attendee
        case .alreadyCheckedIn(let answer): answer.attendee
        case .checkedOut(let attendee), .notCheckedIn(let attendee): attendee
        case .registered(let walkIn): walkIn.attendee
        case .notFound(let refusal), .refused(let refusal): refusal.attendee
        case .badgePrinted(let attendee, _, _), .badgeNotPrinted(let attendee, _),
            .badgeAlreadyPrinted(let attendee, _),
            .badgeReplaced(let attendee, _), .redeemed(let attendee, _):
            attendee
        case .attended(let answer): answer.attendee
        case .noted, .head, .submitted, .status, .screen, .pong, .error, .found, .partyCheckedIn, .spotOpened: nil
        }
    }

    /// The check-in shown; for a lookup, its time with no kiosk or place, as on the wire.
    public var checkIn: PresenceSummary? {
        switch self {
        case .checkedIn(let answer): answer.checkIn
        case .alreadyCheckedIn(let answer): answer.checkIn
        case .registered(let walkIn): walkIn.checkIn
        case .found(let match):
            match.checkedInAtMillis.map { PresenceSummary(atMillis: $0, kioskName: "", location: "") }
        default: nil
        }
    }

    public var ticket: String? {
        switch self {
        case .registered(let walkIn): walkIn.ticket
        case .badgeReplaced(_, let code): code
        default: nil
        }
    }

    /// The door's reason code, as on the wire (`zone_full`).
    public var reason: String? {
        switch self {
        case .alreadyCheckedIn(let answer): answer.reason?.code
        case .notFound(let refusal), .refused(let refusal): refusal.reason?.code
        default: nil
        }
    }

    public var errorCode: ControlErrorCode? {
        guard case .error(let failure) = self else { return nil }
        return failure.code
    }

    public var retryAfterSeconds: Int? {
        guard case .error(let failure) = self else { return nil }
        return failure.retryAfterSeconds
    }

    public var maskedName: String? {
        guard case .found(let match) = self else { return nil }
        return match.maskedName
    }

    public var admitted: Bool? {
        guard case .found(let match) = self else { return nil }
        return match.admitted
    }

    public var kioskName: String? {
        switch self {
        case .status(let status): status.kioskName
        case .pong(let pong): pong.kioskName
        case .screen(let context): context.kioskName
        default: nil
        }
    }

    public var kioskKey: String? {
        switch self {
        case .status(let status): status.kioskKey
        case .pong(let pong): pong.kioskKey
        default: nil
        }
    }

    public var campaignName: String? {
        guard case .screen(let context) = self else { return nil }
        return context.campaignName
    }

    /// The screen's language code, as on the wire (`de`).
    public var language: String? {
        guard case .screen(let context) = self else { return nil }
        return context.language?.rawValue
    }

    /// Deltas applied (0 for a staged submission, as on the wire).
    public var applied: Int? {
        switch self {
        case .submitted(.applied(let count)): count
        case .submitted(.staged): 0
        default: nil
        }
    }

    public var staged: Int? {
        guard case .submitted(.staged(let count)) = self else { return nil }
        return count
    }

    public var headSeq: UInt64? {
        guard case .head(let seq, _) = self else { return nil }
        return seq
    }

    public var headHash: [UInt8]? {
        guard case .head(_, let hash) = self else { return nil }
        return hash
    }

    public var badgeJob: Int? {
        guard case .badgePrinted(_, let job, _) = self else { return nil }
        return job
    }

    public var peerDetails: [PeerDetail]? {
        guard case .status(let status) = self else { return nil }
        return status.peerDetails
    }
}
