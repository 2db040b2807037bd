/// The audit record of a scan a door refused. Kiosk-authored.
///
/// An accepted scan is already a signed, replicated record: its check-in (or walk-in
/// registration) delta. So the audit is the check-ins plus these, one delta per attempt, written
/// in the same transaction as the decision, and nothing is logged twice.
///
/// Not-found attempts carry no attendee and are aggregated per kiosk per minute (``count``), so a
/// stream of bad codes at one door costs at most a couple of deltas a minute, not one per scan.
/// What was typed is never recorded: it may be somebody else's email.
///
/// The zone is the author's certificate's location, read from the roster like a check-in's.
public struct ScanPayload: DeltaPayload {
    public static let kind = DeltaKind.scan
    /// Most not-found attempts one record may stand for.
    public static let maxCount: UInt32 = 1_000_000

    /// Empty when the kiosk was not locked to an event.
    public var campaignID: String
    /// Empty for a not-found attempt; otherwise the normalized attendee key.
    public var attendeeKey: String
    public var reason: DoorReason
    /// How many attempts this record stands for: 1, or more for aggregated not-found attempts.
    public var count: UInt32
    /// For aggregated not-found attempts: the start of the minute (Unix milliseconds) they fell in;
    /// the time of the attempt otherwise.
    public var atMillis: Int64

    public init(campaignID: String, attendeeKey: String, reason: DoorReason, count: UInt32 = 1, atMillis: Int64) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.reason = reason
        self.count = count
        self.atMillis = atMillis
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey, reason, Int64(count), atMillis)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        let attendeeKey = try reader.read(String.self)
        let reason = try reader.read(DoorReason.self)
        let countOffset = reader.offset
        let count = try reader.readInt64()
        guard count >= 1, count <= Int64(Self.maxCount) else {
            throw .invalidValue(at: countOffset, "a scan record stands for 1 to \(Self.maxCount) attempts")
        }
        // Only not-found attempts are aggregated; every other refusal names one attendee once.
        guard count == 1 || reason == .notFound else {
            throw .invalidValue(at: countOffset, "only not-found attempts are aggregated")
        }
        let atMillis = try reader.readInt64()
        self.init(
            campaignID: campaignID,
            attendeeKey: attendeeKey,
            reason: reason,
            count: UInt32(count),
            atMillis: atMillis
        )
    }
}
