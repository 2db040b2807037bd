public import MusterBadge
public import MusterControl
public import MusterCore
public import MusterRules
public import MusterStore

/// What a `badge` control request asks, once read against the replica: print this badge for
/// this attendee, or answer at once (unknown attendee, no check-in, already printed).
///
/// The decision is a pure function of the request and a snapshot of the replica, so the reprint
/// guard is tested without a printer; ``BadgeDesk`` carries it out.
public enum BadgeRequest: Sendable, Equatable {
    case print(BadgeContent, campaignID: String, attendee: AttendeeSummary, reason: BadgePayload.Reason)
    case answer(ControlResponse)

    /// Reads `order` against `view`: the reprint guard for the self-service badge, the attendee for any.
    public static func decide(_ order: BadgeOrder, view: ReplicaView) throws -> BadgeRequest {
        guard let campaign = try view.lock()?.campaignID else { return .answer(ControlHandler.waitingForLock) }
        let found: AttendeeRecord?
        switch order.attendee {
        case .key(let key): found = try view.attendee(campaignID: campaign, key: key)
        case .query(let query): found = try view.lookup(campaignID: campaign, query: query)
        }
        guard let record = found else { return .answer(.notFound(ControlHandler.noMatch)) }
        if order.reason == .selfService {
            // The screen asks only after a check-in it was told of; anything else is not self-service.
            guard record.isCheckedIn else {
                return .answer(.refused(RefusalAnswer("A badge follows a check-in.", attendee: record.summary)))
            }
            if let first = try view.badges(campaignID: campaign, attendeeKey: record.key).first {
                // Not where: this answer goes to the public screen, and the kiosk that printed the badge
                // would tell whoever stands there where the attendee went. Staff see it in `muster attendees`.
                let message = "A badge was already printed (\(first.reason)); staff can print another."
                return .answer(.badgeAlreadyPrinted(record.summary, message: message))
            }
        }
        let content = BadgeContent(
            eventName: try view.campaignName(id: campaign) ?? "",
            firstName: record.firstName,
            lastName: record.lastName,
            company: record.company,
            code: try view.currentBadgeCode(of: record),
            ticketType: record.details?.ticketType ?? ""
        )
        return .print(content, campaignID: campaign, attendee: record.summary, reason: order.reason)
    }
}
