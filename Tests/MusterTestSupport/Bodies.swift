public import MusterCore

/// Builders of the delta bodies the tests sign: attendees, check-ins and check-outs, walk-ins.
public enum Bodies {
    /// A presence at "Kiosk A" (in "Hall A") or any other kiosk (in "Hall B"), as an attendee's member.
    public static func presence(_ campaign: String, _ key: String, kiosk: String) -> PresencePayload {
        PresencePayload(
            campaignID: campaign,
            attendeeKey: key,
            kioskName: kiosk,
            location: kiosk == "Kiosk A" ? "Hall A" : "Hall B",
            memberStatus: "Attended"
        )
    }

    public static func checkIn(_ campaign: String, _ key: String, kiosk: String) -> DeltaBody {
        .checkIn(CheckInPayload(presence(campaign, key, kiosk: kiosk)))
    }

    public static func checkOut(_ campaign: String, _ key: String, kiosk: String) -> DeltaBody {
        .checkOut(CheckOutPayload(presence(campaign, key, kiosk: kiosk)))
    }

    /// An imported attendee, keyed by the email's key as the import keys it.
    public static func attendee(
        _ campaign: String,
        email: String,
        first: String,
        last: String,
        company: String = "",
        ticket: String? = nil,
        salesforceID: String? = nil,
        status: String? = "Registered",
        admitted: Bool = true,
        details: AttendeeDetails? = nil
    ) -> DeltaBody {
        .attendee(
            AttendeePayload(
                campaignID: campaign,
                key: EmailAddress.key(email),
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket,
                salesforceID: salesforceID,
                status: status,
                admitted: admitted,
                details: details
            )
        )
    }

    /// A walk-in registered (and checked in) at `kiosk`.
    public static func registration(
        _ campaign: String,
        email: String,
        first: String,
        last: String,
        company: String,
        ticket: String,
        kiosk: String
    ) -> DeltaBody {
        .registration(
            RegistrationPayload(
                presence: presence(campaign, EmailAddress.key(email), kiosk: kiosk),
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket
            )
        )
    }
}
