/// The organizer's campaign lock: which campaign every kiosk shows, the status written on members
/// who check in, and an optional check-in window. Organizer only; the highest version wins.
///
/// An unlock is a lock with no campaign and a higher version, so "newest wins" needs no special case.
///
/// Door rules (zones, capacity, entries, re-entry; issue 16) follow the window as an optional,
/// versioned tail: a lock without rules encodes exactly as before, so every lock signed before door
/// rules existed still decodes, verifies and materializes the same.
public struct LockPayload: DeltaPayload {
    public static let kind = DeltaKind.lock
    public var version: UInt64
    public var campaignID: String?
    public var checkInStatus: String
    /// Unix milliseconds; nil means no bound.
    public var opensAtMillis: Int64?
    public var closesAtMillis: Int64?
    /// nil: no door rules (any zone, no capacity, unlimited entries, re-entry allowed).
    public var rules: DoorRules?

    public init(
        version: UInt64,
        campaignID: String?,
        checkInStatus: String = "Responded",
        opensAtMillis: Int64? = nil,
        closesAtMillis: Int64? = nil,
        rules: DoorRules? = nil
    ) {
        self.version = version
        self.campaignID = campaignID
        self.checkInStatus = checkInStatus
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
        self.rules = rules
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(version)
        writer.write(campaignID)
        writer.write(checkInStatus)
        writer.write(opensAtMillis)
        writer.write(closesAtMillis)
        guard let rules else { return }
        writer.write(DoorRules.encodingVersion)
        rules.encode(into: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        version = try reader.readUInt64()
        campaignID = try reader.readOptionalString(maxLength: 64)
        checkInStatus = try reader.readString(maxLength: 128)
        opensAtMillis = try reader.readOptionalInt64()
        closesAtMillis = try reader.readOptionalInt64()
        guard !reader.isAtEnd else {
            rules = nil
            return
        }
        let rulesVersion = try reader.readUInt8()
        guard rulesVersion == DoorRules.encodingVersion else { throw .unsupportedVersion(rulesVersion) }
        rules = try DoorRules(from: &reader)
    }
}
