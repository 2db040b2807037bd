public import MusterAttendeeList
public import MusterCore
public import MusterStore

/// Turns a parsed attendee file into the organizer's deltas: the campaign (when new) and one
/// attendee delta per person.
public enum ImportPlan {
    public static func bodies(for list: AttendeeListImport, campaignID: String, newCampaignName: String?) -> [DeltaBody]
    {
        var bodies: [DeltaBody] = []
        bodies.reserveCapacity(list.rows.count + 1)
        if let newCampaignName {
            bodies.append(.campaign(CampaignPayload(campaignID: campaignID, name: newCampaignName)))
        }
        for row in list.rows {
            bodies.append(
                .attendee(
                    AttendeePayload(
                        campaignID: campaignID,
                        key: row.emailKey,
                        email: row.email,
                        firstName: row.firstName,
                        lastName: row.lastName,
                        company: row.company,
                        ticket: row.ticket,
                        salesforceID: row.salesforceID,
                        status: row.status,
                        admitted: row.admitted
                    )
                )
            )
        }
        return bodies
    }

    /// A fresh campaign id: 16 random hex digits.
    public static func newCampaignID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
