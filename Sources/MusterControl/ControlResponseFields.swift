import MusterCore
import MusterRules

/// The payload of one outcome, read from and written into the flat object of a response line, beside
/// `outcome`: each payload type says which fields it is, so the line's layout lives with the type.
protocol ControlResponseFields {
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws
    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws
}

extension KeyedDecodingContainer where Key == ControlResponseKey {
    /// A door's reason code; one this version does not know reads as none (the message still says it).
    func doorReason() throws -> DoorReason? {
        try decodeIfPresent(String.self, forKey: .reason).flatMap(DoorReason.init(code:))
    }
}

extension KeyedDecodingContainer where Key == ControlResponseKey {
    /// When a check-in happened, from its `checkIn` object (whose kiosk and place the screen is not told).
    func checkInTime() throws -> UInt64? {
        try decodeIfPresent(PresenceSummary.self, forKey: .checkIn)?.atMillis
    }
}

extension KeyedEncodingContainer where Key == ControlResponseKey {
    /// A check-in's time in the `checkIn` object every client reads, its kiosk and place left empty.
    mutating func encodeCheckInTime(_ millis: UInt64?) throws {
        try encodeIfPresent(millis.map { PresenceSummary(atMillis: $0, kioskName: "", location: "") }, forKey: .checkIn)
    }
}
