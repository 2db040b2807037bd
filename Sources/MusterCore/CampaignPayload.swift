/// Creates or renames a campaign (an event). Organizer only. Name is last-writer-wins.
public struct CampaignPayload: DeltaPayload {
    public static let kind = DeltaKind.campaign
    public var campaignID: String
    public var name: String

    public init(campaignID: String, name: String) {
        self.campaignID = campaignID
        self.name = name
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, name)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(campaignID: try reader.readString(maxLength: Limits.maxCampaignIDBytes), name: try reader.read())
    }
}
