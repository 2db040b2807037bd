import MusterControl
import MusterCore
import MusterRules

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
                return .notFound(Self.noMatch)
            }
            // A replaced badge's code names nobody to the screen: only that the badge is dead.
            if try view.replacement(killing: query, of: record) != nil {
                return .refused(RefusalAnswer(DoorText.replacedOnScreen, reason: .replaced))
            }
            let match = ScreenMatch(
                maskedName: MaskedName.of(firstName: record.summary.firstName, lastName: record.summary.lastName),
                admitted: record.admitted,
                checkedInAtMillis: record.isInside ? record.firstArrival?.summary.atMillis : nil
            )
            return .found(match)
        }
    }

    /// What the public screen's banner needs: this kiosk's name, the locked campaign's name, the
    /// language the lock sets, and the reason check-in is refused right now (outside the window), if it is.
    /// A lock's language this version's screen does not speak is not passed on: the screen speaks its own.
    func screenContext() throws(ReplicaError) -> ControlResponse {
        let now = clock.nowMillis
        var context = try replica.view { view in
            guard let lock = try view.lock(), lock.campaignID != nil else {
                return ScreenContext(kioskName: config.name)
            }
            var context = ScreenContext(
                kioskName: config.name,
                campaignName: lock.campaignName ?? lock.campaignID,
                language: lock.language.flatMap(ScreenLanguage.init(rawValue:))
            )
            if case .refuse(let message) = CheckInPolicy.window(lock: lock, nowMillis: now) {
                context.refusal = message
            }
            try sessionContext(view, into: &context, nowMillis: Int64(clamping: now))
            return context
        }
        context.solitude = solitude()
        return .screen(context)
    }
}
