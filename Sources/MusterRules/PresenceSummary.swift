/// When and where a check-in happened.
public struct PresenceSummary: Codable, Sendable, Equatable {
    public var atMillis: UInt64
    public var kioskName: String
    public var location: String

    public init(atMillis: UInt64, kioskName: String, location: String) {
        self.atMillis = atMillis
        self.kioskName = kioskName
        self.location = location
    }
}
