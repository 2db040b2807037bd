/// A badge was printed for an attendee at this kiosk. Kiosk-authored, kind tag 11.
///
/// A printed badge is a replicated fact, so the reprint guard works offline across every kiosk:
/// once any kiosk's badge delta has reached a kiosk, its self-service screen prints no second
/// badge for that attendee and sends them to the staff desk, where `muster badge reprint` prints
/// one and records why. The delta is written after the job completed on the printer, so a badge
/// that never came out does not block the attendee's next attempt.
public struct BadgePayload: DeltaPayload {
    public static let kind = DeltaKind.badge

    /// Why the badge was printed.
    public enum Reason: UInt8, ByteEnum, Sendable, CaseIterable, CustomStringConvertible {
        public static let wireName = "badge reason"

        /// The attendee checked in (or registered as a walk-in) on the self-service screen.
        case selfService = 1
        /// Staff printed another one (`muster badge reprint`): lost, damaged, misspelt.
        case reprint = 2
        /// Staff printed one without a check-in (`muster badge print`), e.g. for a speaker's pack.
        case printOnly = 3

        public var description: String {
            switch self {
            case .selfService: "self-service"
            case .reprint: "reprint"
            case .printOnly: "print-only"
            }
        }
    }

    public var campaignID: String
    public var attendeeKey: String
    public var reason: Reason

    public init(campaignID: String, attendeeKey: String, reason: Reason) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.reason = reason
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID, attendeeKey, reason)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let campaignID = try reader.readString(maxLength: Limits.maxCampaignIDBytes)
        self.init(campaignID: campaignID, attendeeKey: try reader.read(), reason: try reader.read())
    }
}
