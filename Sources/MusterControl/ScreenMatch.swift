/// `found`: what a lookup tells the public screen before the person confirms who they are.
///
/// The masked name ("Ada L."), whether the ticket is valid, and when the attendee first arrived if they
/// are inside: never the kiosk or place (that would tell a stranger where someone went), the company,
/// email, ticket or attendee key. Staff's lookups get the same: a lookup is the screen's request.
public struct ScreenMatch: Sendable, Equatable {
    public var maskedName: String
    public var admitted: Bool
    public var checkedInAtMillis: UInt64?

    public init(maskedName: String, admitted: Bool, checkedInAtMillis: UInt64? = nil) {
        self.maskedName = maskedName
        self.admitted = admitted
        self.checkedInAtMillis = checkedInAtMillis
    }
}

extension ScreenMatch: ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        maskedName = try fields.decode(String.self, forKey: .maskedName)
        admitted = try fields.decode(Bool.self, forKey: .admitted)
        checkedInAtMillis = try fields.checkInTime()
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        try fields.encode(maskedName, forKey: .maskedName)
        try fields.encode(admitted, forKey: .admitted)
        try fields.encodeCheckInTime(checkedInAtMillis)
    }
}
