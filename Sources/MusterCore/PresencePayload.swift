/// A check-in or a check-out of one attendee at one kiosk. Kiosk-authored.
///
/// Check-ins are a grow-only set per (campaign, attendee); the one shown is the earliest by
/// (hlc, author). Kiosk name and location are copied in so the log export and "already checked in
/// at Hall A" need nothing else.
public struct PresencePayload: Sendable, Equatable {
    public var campaignID: String
    public var attendeeKey: String
    public var kioskName: String
    public var location: String
    /// The member status the lock asked for at the time (e.g. "Responded", "Attended").
    public var memberStatus: String

    public init(campaignID: String, attendeeKey: String, kioskName: String, location: String, memberStatus: String) {
        self.campaignID = campaignID
        self.attendeeKey = attendeeKey
        self.kioskName = kioskName
        self.location = location
        self.memberStatus = memberStatus
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(campaignID)
        writer.write(attendeeKey)
        writer.write(kioskName)
        writer.write(location)
        writer.write(memberStatus)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        campaignID = try reader.readString(maxLength: 64)
        attendeeKey = try reader.readString()
        kioskName = try reader.readString(maxLength: 256)
        location = try reader.readString(maxLength: 256)
        memberStatus = try reader.readString(maxLength: 128)
    }
}

/// A check-in (see ``PresencePayload``).
///
/// Entering an exclusive zone (``ZoneRule/exclusive``) ends the attendee's presence in the other
/// zones: the check-in names those arrivals in `ends`, as a check-out does, so the move follows
/// what the kiosk had seen, not the kiosks' clocks. nil (and encoded as nothing, so every older
/// check-in decodes alike) when it ends nothing.
public struct CheckInPayload: DeltaPayload {
    public static let kind = DeltaKind.checkIn
    public var presence: PresencePayload
    public var ends: [DeltaRef]?

    public init(_ presence: PresencePayload, ends: [DeltaRef]? = nil) {
        self.presence = presence
        self.ends = ends
    }

    public func encode(into writer: inout ByteWriter) {
        presence.encode(into: &writer)
        guard let ends else { return }
        DeltaRef.encode(ends, into: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        presence = try PresencePayload(from: &reader)
        ends = reader.isAtEnd ? nil : try DeltaRef.decodeList(from: &reader, max: CheckOutPayload.maxEnds)
    }
}

/// A check-out (see ``PresencePayload``). It names the arrivals it ends, so whether someone is
/// "inside" follows causality (which check-ins the kiosk had seen), not the authors' clocks: a
/// check-in stamped far in the future cannot outlast the check-out that names it.
///
/// `ends` is nil only in check-outs written before it existed (encoded without it); those end every
/// arrival of the same attendee that sorts before them by (hlc, author, seq).
public struct CheckOutPayload: DeltaPayload {
    public static let kind = DeltaKind.checkOut
    /// Most arrivals one check-out can end (concurrent check-ins at several kiosks).
    public static let maxEnds = 16
    public var presence: PresencePayload
    public var ends: [DeltaRef]?

    public init(_ presence: PresencePayload, ends: [DeltaRef]? = nil) {
        self.presence = presence
        self.ends = ends
    }

    public func encode(into writer: inout ByteWriter) {
        presence.encode(into: &writer)
        guard let ends else { return }
        DeltaRef.encode(ends, into: &writer)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        presence = try PresencePayload(from: &reader)
        ends = reader.isAtEnd ? nil : try DeltaRef.decodeList(from: &reader, max: Self.maxEnds)
    }
}
