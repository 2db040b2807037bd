/// An attendee's badge code replaced at a staff desk (`muster badge replace`), or the replacement
/// undone (`--restore`). Kiosk-authored, kind tag 14.
///
/// A lost or stolen badge's code must stop working at every door, offline: the code is what the
/// badge's QR carries, and whoever holds the badge holds the code. Every replacement is kept (a
/// grow-only set), and the attendee's one valid code is a function of that set, so every kiosk that
/// has heard the same replacements refuses the same codes (``BadgeCodes``).
public struct BadgeCodePayload: DeltaPayload {
    public static let kind = DeltaKind.badgeCode

    public var campaignID: String
    public var attendeeKey: String
    /// The new code; nil gives the attendee back the code the list gave them (the replacement undone).
    public var code: String?

    public init(campaignID: String, attendeeKey: String, code: String?) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.code = code
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey)
        writer.write(code)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        let attendeeKey: String = try reader.read()
        self.init(campaignID: campaignID, attendeeKey: attendeeKey, code: try reader.readOptionalString())
    }
}
