/// The organizer's campaign lock: which campaign every kiosk shows, the status written on members
/// who check in, and an optional check-in window. Organizer only; the highest version wins.
///
/// An unlock is a lock with no campaign and a higher version, so "newest wins" needs no special case.
public struct LockPayload: DeltaPayload {
    public static let kind = DeltaKind.lock
    public var version: UInt64
    public var campaignID: String?
    public var checkInStatus: String
    /// Unix milliseconds; nil means no bound.
    public var opensAtMillis: Int64?
    public var closesAtMillis: Int64?

    public init(
        version: UInt64,
        campaignID: String?,
        checkInStatus: String = "Responded",
        opensAtMillis: Int64? = nil,
        closesAtMillis: Int64? = nil
    ) {
        self.version = version
        self.campaignID = campaignID
        self.checkInStatus = checkInStatus
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(version)
        writer.write(campaignID)
        writer.write(checkInStatus)
        writer.write(opensAtMillis)
        writer.write(closesAtMillis)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        version = try reader.readUInt64()
        campaignID = try reader.readOptionalString(maxLength: 64)
        checkInStatus = try reader.readString(maxLength: 128)
        opensAtMillis = try reader.readOptionalInt64()
        closesAtMillis = try reader.readOptionalInt64()
    }
}
