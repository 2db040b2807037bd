public import MusterBadge
public import MusterControl
public import MusterCore
public import MusterStore

/// What a `badge` control request asks, once read against the replica: print this badge for
/// this attendee, or answer at once (unknown attendee, no check-in, already printed).
///
/// The decision is a pure function of the request and a snapshot of the replica, so the reprint
/// guard is tested without a printer; ``BadgeDesk`` carries it out.
public enum BadgeRequest: Sendable, Equatable {
    case print(BadgeContent, campaignID: String, attendee: AttendeeSummary, reason: BadgePayload.Reason)
    case answer(ControlResponse)

    /// - Parameters:
    ///   - reason: the request's reason (self-service unless staff say otherwise).
    public static func decide(
        _ request: ControlRequest,
        reason: BadgePayload.Reason,
        view: ReplicaView
    ) throws -> BadgeRequest {
        guard let campaign = try view.lock()?.campaignID else {
            return .answer(
                ControlResponse(
                    outcome: .refused,
                    message: "This kiosk is waiting for the organizer to pick the event."
                )
            )
        }
        let found: AttendeeRecord?
        if let key = request.attendeeKey, !key.isEmpty {
            found = try view.attendee(campaignID: campaign, key: key)
        } else if let query = request.query, !query.isEmpty {
            found = try view.lookup(campaignID: campaign, query: query)
        } else {
            return .answer(.failure(.badRequest, "missing attendeeKey or query"))
        }
        guard let record = found else {
            return .answer(ControlResponse(outcome: .notFound, message: "No ticket or email matches."))
        }
        if reason == .selfService {
            // The screen asks only after a check-in it was told of; anything else is not self-service.
            guard record.isCheckedIn else {
                var response = ControlResponse(outcome: .refused, message: "A badge follows a check-in.")
                response.attendee = record.summary
                return .answer(response)
            }
            if let first = try view.badges(campaignID: campaign, attendeeKey: record.key).first {
                // Not where: this answer goes to the public screen, and the kiosk that printed the badge
                // would tell whoever stands there where the attendee went. Staff see it in `muster attendees`.
                var response = ControlResponse(
                    outcome: .badgeAlreadyPrinted,
                    message: "A badge was already printed (\(first.reason)); staff can print another."
                )
                response.attendee = record.summary
                return .answer(response)
            }
        }
        let content = BadgeContent(
            eventName: try view.campaignName(id: campaign) ?? "",
            firstName: record.firstName,
            lastName: record.lastName,
            company: record.company,
            code: record.badgeCode
        )
        return .print(content, campaignID: campaign, attendee: record.summary, reason: reason)
    }
}
