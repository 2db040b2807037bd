/// An add-on handed out (issue 35): a T-shirt, a dinner voucher, a workshop seat bought with the
/// ticket (``AttendeeDetails/addons``). Kiosk-authored, kind tag 15.
///
/// A redemption is a replicated fact, like a printed badge, so "once per attendee and add-on" holds
/// across the venue while desks hear each other: a desk refuses an add-on any redemption it holds
/// already handed out. Two desks cut off from each other can both hand it out; both records survive
/// (a grow-only set) and ``Conflicts`` reports the double as `redeemed_twice`. The desk is the
/// author's certificate's location, never the payload's.
///
/// Only an attendee with details has add-ons, and `muster import` sends details only once every
/// kiosk says it reads them; reading details and reading this kind came in the same release, so a
/// kiosk that could not read a redemption holds no add-on to redeem.
public struct RedemptionPayload: DeltaPayload {
    public static let kind = DeltaKind.redemption

    public var campaignID: String
    public var attendeeKey: String
    /// The add-on as the list names it (one of the attendee's ``AttendeeDetails/addons``).
    public var addon: String

    public init(campaignID: String, attendeeKey: String, addon: String) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.addon = addon
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey, addon)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        let attendeeKey = try reader.read(String.self)
        let offset = reader.offset
        let addon = try reader.readString(maxLength: AttendeeDetails.maxAddonBytes)
        guard !addon.isEmpty else { throw .invalidValue(at: offset, "a redemption names its add-on") }
        self.init(campaignID: campaignID, attendeeKey: attendeeKey, addon: addon)
    }
}
