import MusterControl
import MusterCore
import MusterStore

/// The two requests of the public kiosk screen, which runs as its own user with no replica and no key
/// (issue 14): it learns only what it is about to show, and nothing it is not.
extension ControlHandler {
    /// A lookup for the public screen: the masked name, whether the ticket is valid, and when the
    /// attendee first arrived, without the kiosk or place (that would tell a stranger where someone went).
    /// Never the company, email, ticket or attendee key; the check-in that follows names the same query.
    func screenLookup(query: String) throws(ReplicaError) -> ControlResponse {
        let now = clock.nowMillis
        return try replica.view { view in
            let window = CheckInPolicy.window(lock: try view.lock(), nowMillis: now)
            guard case .allow(let campaign, _) = window else { return Self.refusal(window) }
            guard let record = try view.lookup(campaignID: campaign, query: query) else {
                return ControlResponse(outcome: .notFound, message: "No ticket or email matches.")
            }
            var response = ControlResponse(outcome: .found)
            response.maskedName = MaskedName.of(firstName: record.summary.firstName, lastName: record.summary.lastName)
            response.admitted = record.admitted
            if record.isInside, let arrival = record.firstArrival {
                response.checkIn = PresenceSummary(atMillis: arrival.summary.atMillis, kioskName: "", location: "")
            }
            return response
        }
    }

    /// What the public screen's banner needs: this kiosk's name, the locked campaign's name, the
    /// language the lock sets, and the reason check-in is refused right now (outside the window), if it is.
    func screenContext() throws(ReplicaError) -> ControlResponse {
        let now = clock.nowMillis
        return try replica.view { view in
            var response = ControlResponse(outcome: .status)
            response.kioskName = config.name
            guard let lock = try view.lock(), lock.campaignID != nil else { return response }
            response.campaignName = lock.campaignName ?? lock.campaignID
            response.language = lock.language
            if case .refuse(let message) = CheckInPolicy.window(lock: lock, nowMillis: now) {
                response.message = message
            }
            return response
        }
    }
}
