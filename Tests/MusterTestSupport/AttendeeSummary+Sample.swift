public import MusterRules

extension AttendeeSummary {
    /// An attendee as the front ends are told of one: Ada Lovelace of Analytical, unless told otherwise.
    public static func sample(
        campaign: String = "c1",
        key: String = "ada@example.com",
        first: String = "Ada",
        last: String = "Lovelace",
        company: String = "Analytical",
        ticket: String? = "MUS-0001"
    ) -> AttendeeSummary {
        AttendeeSummary(
            campaignID: campaign,
            key: key,
            firstName: first,
            lastName: last,
            company: company,
            ticket: ticket
        )
    }
}
