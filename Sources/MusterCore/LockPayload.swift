/// The organizer's campaign lock: which campaign every kiosk shows, the status written on members
/// who check in, and an optional check-in window. Organizer only; the highest version wins.
///
/// An unlock is a lock with no campaign and a higher version, so "newest wins" needs no special case.
///
/// Door rules (zones, capacity, entries, re-entry; issue 16) follow the window as an optional,
/// versioned tail: a lock without rules encodes exactly as before, so every lock signed before door
/// rules existed still decodes, verifies and materializes the same.
///
/// The screen's language (issue 14) is a second optional tail item, introduced by its own tag
/// (``languageTag``) after the rules if there are any. A lock without a language encodes exactly as
/// before, so no existing signature or digest changes. A kiosk older than this field refuses a lock
/// that carries one (its decoder reads the tag as an unknown rules version, or as trailing bytes after
/// the rules) instead of misreading it: set a language on the lock only once every kiosk runs a
/// version that knows it.
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
    /// The language every kiosk screen speaks to the next person (an ISO 639 code such as `de`); nil:
    /// each kiosk's own `[screen] language`. An attendee still switches for their own turn.
    public var language: String?

    /// The tag before the language in the encoding: not a rules version (those count up from 1), so an
    /// older decoder refuses it as one rather than reading the language as rules.
    public static let languageTag: UInt8 = 0x4C
    /// The longest language code a lock carries (`de`, `pl`; room for three-letter ISO 639-2 codes).
    public static let maxLanguageBytes = 3

    public init(
        version: UInt64,
        campaignID: String?,
        checkInStatus: String = "Responded",
        opensAtMillis: Int64? = nil,
        closesAtMillis: Int64? = nil,
        rules: DoorRules? = nil,
        language: String? = nil
    ) {
        self.version = version
        self.campaignID = campaignID
        self.checkInStatus = checkInStatus
        self.opensAtMillis = opensAtMillis
        self.closesAtMillis = closesAtMillis
        self.rules = rules
        self.language = language
    }

    /// What of this lock's encoding a kiosk must read to apply it, by name: the door rules' encoding
    /// version and the screen's language. A kiosk says which it reads in its status
    /// (``readableFeatures``), and `muster lock` refuses a lock an enrolled kiosk could not read.
    public var features: [String] {
        var features: [String] = []
        if let rules { features.append("door-rules-v\(rules.encodingVersion)") }
        if language != nil { features.append("screen-language") }
        return features
    }

    /// Every feature this code reads (``features``).
    public static let readableFeatures: [String] =
        DoorRules.encodingVersions.map { "door-rules-v\($0)" } + ["screen-language"]

    /// Whether `code` is shaped like a language code a lock may carry: two or three ASCII lowercase
    /// letters. Which languages a screen actually speaks is the front end's business (its catalog);
    /// a kiosk that does not speak the lock's language keeps its own.
    public static func isLanguageCode(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        return (2...maxLanguageBytes).contains(bytes.count) && bytes.allSatisfy { (0x61...0x7A).contains($0) }
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(version, campaignID, checkInStatus, opensAtMillis, closesAtMillis)
        // The rules write their own version byte first.
        if let rules { rules.encode(into: &writer) }
        if let language {
            writer.write(Self.languageTag)
            writer.write(language)
        }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        version = try reader.readUInt64()
        campaignID = try reader.readOptionalString(maxLength: Limits.maxCampaignIDBytes)
        checkInStatus = try reader.readString(maxLength: 128)
        opensAtMillis = try reader.readOptionalInt64()
        closesAtMillis = try reader.readOptionalInt64()
        rules = nil
        language = nil
        // The optional tail: rules, then the language, each only when present, in that order.
        guard !reader.isAtEnd else { return }
        var tag = try reader.readUInt8()
        if DoorRules.encodingVersions.contains(tag) {
            rules = try DoorRules(version: tag, from: &reader)
            guard !reader.isAtEnd else { return }
            tag = try reader.readUInt8()
        }
        guard tag == Self.languageTag else { throw .unsupportedVersion(tag) }
        let offset = reader.offset
        let code = try reader.readString(maxLength: Self.maxLanguageBytes)
        guard Self.isLanguageCode(code) else {
            throw .invalidValue(at: offset, "a lock's language is two or three lowercase letters")
        }
        language = code
    }
}
