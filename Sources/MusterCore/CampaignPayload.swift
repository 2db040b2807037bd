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
        writer.write(campaignID)
        writer.write(name)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        campaignID = try reader.readString(maxLength: 64)
        name = try reader.readString()
    }
}
