public import MusterCore

/// A badge that a kiosk whose own printer cannot print asks a peer to print (`[badge] fallback`;
/// sync message 18, 0.6.5).
///
/// Only the self-service badge travels: the one the screen asks for after a check-in, which the
/// reprint guard allows once per attendee venue-wide. A kiosk key can thus make a neighbour print at
/// most one badge per checked-in attendee, as the screen itself could; staff reprints stay at the
/// desk that has the staff.
public struct RelayedPrint: Sendable, Equatable, ByteCodable {
    /// The asker's number for this request, which the reply names.
    public let id: UInt64
    /// The attendee the check-in returned.
    public let attendeeKey: String
    /// The asker's own chain head when it asked: the peer decides only once it holds that much of the
    /// asker's chain, so the check-in the badge follows is there.
    public let after: UInt64

    public init(id: UInt64, attendeeKey: String, after: UInt64) {
        self.id = id
        self.attendeeKey = attendeeKey
        self.after = after
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(id, attendeeKey, after)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let id: UInt64 = try reader.read()
        let key = try reader.readString(maxLength: 512)
        let after: UInt64 = try reader.read()
        self.init(id: id, attendeeKey: key, after: after)
    }
}
