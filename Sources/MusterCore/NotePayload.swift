/// A one-line guestbook note left after check-in. Kiosk-authored.
public struct NotePayload: DeltaPayload {
    public static let kind = DeltaKind.note
    public var campaignID: String
    public var attendeeKey: String
    public var text: String

    public init(campaignID: String, attendeeKey: String, text: String) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.text = text
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey, text)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        self.init(campaignID: campaignID, attendeeKey: try reader.read(), text: try reader.read())
    }
}
