public import MusterRules

/// The answer to `screen` (outcome `status` on the wire): what the public screen's banner needs.
public struct ScreenContext: Sendable, Equatable {
    /// This kiosk's own name.
    public var kioskName: String
    /// The locked campaign's name; nil while the kiosk waits for a lock.
    public var campaignName: String?
    /// The language the organizer's lock sets for the screen; nil when it sets none (or one this version
    /// does not speak: the screen then speaks its own `[screen] language`).
    public var language: ScreenLanguage?
    /// Why check-in is refused right now (outside the lock's window), if it is.
    public var refusal: String?
    /// This kiosk works alone (a staff line on the screen, nothing of any attendee in it).
    public var solitude: Solitude?
    /// A session door (issue 36): this kiosk's zone follows a schedule of sessions, so a scan is
    /// attendance (`attend`), not entry.
    public var sessionDoor = false
    /// The session open in this zone now and when it ends (its name and time only).
    public var session: String?
    public var sessionUntilMillis: Int64?
    /// A check-in spot is open in this zone: six digits typed are its code.
    public var spotOpen = false

    public init(kioskName: String, campaignName: String? = nil, language: ScreenLanguage? = nil, refusal: String? = nil)
    {
        self.kioskName = kioskName
        self.campaignName = campaignName
        self.language = language
        self.refusal = refusal
    }
}

extension ScreenContext: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        kioskName = try fields.decode(String.self, forKey: .kioskName)
        campaignName = try fields.decodeIfPresent(String.self, forKey: .campaignName)
        language = try fields.decodeIfPresent(String.self, forKey: .language).flatMap(ScreenLanguage.init(rawValue:))
        refusal = try fields.decodeIfPresent(String.self, forKey: .message)
        solitude = try fields.decodeIfPresent(Solitude.self, forKey: .solitude)
        sessionDoor = try fields.decodeIfPresent(Bool.self, forKey: .sessionDoor) ?? false
        session = try fields.decodeIfPresent(String.self, forKey: .session)
        sessionUntilMillis = try fields.decodeIfPresent(Int64.self, forKey: .untilMillis)
        spotOpen = try fields.decodeIfPresent(Bool.self, forKey: .spotOpen) ?? false
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(kioskName, forKey: .kioskName)
        try fields.encodeIfPresent(campaignName, forKey: .campaignName)
        try fields.encodeIfPresent(language?.rawValue, forKey: .language)
        try fields.encodeIfPresent(refusal, forKey: .message)
        try fields.encodeIfPresent(solitude, forKey: .solitude)
        if sessionDoor { try fields.encode(true, forKey: .sessionDoor) }
        try fields.encodeIfPresent(session, forKey: .session)
        try fields.encodeIfPresent(sessionUntilMillis, forKey: .untilMillis)
        if spotOpen { try fields.encode(true, forKey: .spotOpen) }
    }
}
