import MusterCore
import MusterRules

/// What a Byzantine run needs of a kiosk's real replica beyond the sync path.
extension ReplicaStore {
    /// Reads the imported attendees (`keys`) and the live presences of `authors` among the
    /// (campaign, attendee) pairs they wrote to.
    func facts(
        attendees keys: [String],
        presences: [(campaign: String, key: String)],
        authors: Set<AuthorID>
    )
        throws(SimError) -> KioskFacts
    {
        do {
            return try view { view in
                var facts = KioskFacts()
                for key in keys {
                    guard let record = try view.attendee(campaignID: SimVenue.campaign, key: key) else { continue }
                    facts.attendees[key] = AttendeeFacts(
                        key: key,
                        email: record.email,
                        firstName: record.firstName,
                        lastName: record.lastName,
                        ticket: record.ticket
                    )
                }
                for (campaign, key) in presences {
                    for record in try view.presences(campaignID: campaign, attendeeKey: key)
                    where authors.contains(record.ref.author) {
                        facts.livePresences.append(
                            PresenceFact(
                                ref: record.ref,
                                campaignID: campaign,
                                kioskName: record.kioskName,
                                location: record.location,
                                memberStatus: record.memberStatus
                            )
                        )
                    }
                }
                return facts
            }
        } catch {
            throw SimError("cannot read \(path)", cause: error)
        }
    }
}
