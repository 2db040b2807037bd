import MusterCore
import MusterRules

/// What the organizer has done before a Byzantine run opens its doors: the attendee list imported
/// and the campaign locked, so that a lie can try to rewrite an imported person or count in a
/// campaign nobody locked.
extension SimVenue {
    /// The member status the lock writes on check-in (the workload's check-ins carry it).
    public static let checkInStatus = "Attended"

    /// How many attendees the organizer imports (the first of the workload's).
    public static let importedAttendees = 16

    /// Imported attendee `index`, as the import names her.
    public static func attendee(_ index: Int) -> AttendeeFacts {
        AttendeeFacts(
            key: "a\(index)@sim.example",
            email: "a\(index)@sim.example",
            firstName: "First\(index)",
            lastName: "Last\(index)",
            ticket: "T-\(index)"
        )
    }

    /// The organizer's chain: the campaign, its attendees, and the lock, stamped half an hour
    /// before the doors open.
    /// `attendees` of them, locked with `rules` (none: one venue-wide zone, no limits).
    public func organizerLog(
        attendees: Int = importedAttendees,
        rules: DoorRules? = nil
    ) throws(SimError)
        -> [SignedDelta]
    {
        var signer = DeltaSigner(venue: policy.venue, keyPair: organizerKey, head: .empty(policy.organizer))
        var bodies: [DeltaBody] = [.campaign(CampaignPayload(campaignID: Self.campaign, name: "Sim"))]
        for index in 0..<attendees {
            let person = Self.attendee(index)
            bodies.append(
                .attendee(
                    AttendeePayload(
                        campaignID: Self.campaign,
                        key: person.key,
                        email: person.email,
                        firstName: person.firstName,
                        lastName: person.lastName,
                        company: "Sim Inc",
                        ticket: person.ticket,
                        salesforceID: nil,
                        status: nil,
                        admitted: true,
                        // The ticket details real lists carry (issue 35), so every copy the sweeps make
                        // carries the attendee delta's tail: a type, and an order of three.
                        details: AttendeeDetails(ticketType: index % 4 == 0 ? "VIP" : "General", order: "O\(index / 3)")
                    )
                )
            )
        }
        bodies.append(
            .lock(LockPayload(version: 1, campaignID: Self.campaign, checkInStatus: Self.checkInStatus, rules: rules))
        )
        var log: [SignedDelta] = []
        for (offset, body) in bodies.enumerated() {
            do {
                log.append(
                    try signer.sign(
                        body,
                        hlc: HLC(physicalMillis: Self.startMillis - 1_800_000 + UInt64(offset), logical: 0)
                    )
                )
            } catch {
                throw SimError("cannot sign the organizer's \(body.kind)", cause: error)
            }
        }
        return log
    }
}
