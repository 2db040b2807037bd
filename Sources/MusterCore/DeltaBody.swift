/// The decoded body of a delta, one case per ``DeltaKind``.
public enum DeltaBody: Sendable, Equatable {
    case campaign(CampaignPayload)
    case attendee(AttendeePayload)
    case lock(LockPayload)
    case checkIn(CheckInPayload)
    case checkOut(CheckOutPayload)
    case registration(RegistrationPayload)
    case note(NotePayload)
    case undo(UndoPayload)
    case enroll(EnrollPayload)
    case revoke(RevokePayload)
    case scan(ScanPayload)
    case badge(BadgePayload)
    case badgeCode(BadgeCodePayload)
    case redemption(RedemptionPayload)
    case session(SessionPayload)
    case attendance(AttendancePayload)
    case sessionRegistration(SessionRegistrationPayload)

    public var kind: DeltaKind { payload.kindOfSelf }

    private var payload: any DeltaPayload {
        switch self {
        case .campaign(let p): p
        case .attendee(let p): p
        case .lock(let p): p
        case .checkIn(let p): p
        case .checkOut(let p): p
        case .registration(let p): p
        case .note(let p): p
        case .undo(let p): p
        case .enroll(let p): p
        case .revoke(let p): p
        case .scan(let p): p
        case .badge(let p): p
        case .badgeCode(let p): p
        case .redemption(let p): p
        case .session(let p): p
        case .attendance(let p): p
        case .sessionRegistration(let p): p
        }
    }

    public func encode() -> [UInt8] {
        var writer = ByteWriter()
        payload.encode(into: &writer)
        return writer.bytes
    }

    public static func decode(kind: DeltaKind, bytes: [UInt8]) throws(DecodeError) -> DeltaBody {
        var reader = ByteReader(bytes)
        let body: DeltaBody
        switch kind {
        case .campaign: body = .campaign(try CampaignPayload(from: &reader))
        case .attendee: body = .attendee(try AttendeePayload(from: &reader))
        case .lock: body = .lock(try LockPayload(from: &reader))
        case .checkIn: body = .checkIn(try CheckInPayload(from: &reader))
        case .checkOut: body = .checkOut(try CheckOutPayload(from: &reader))
        case .registration: body = .registration(try RegistrationPayload(from: &reader))
        case .note: body = .note(try NotePayload(from: &reader))
        case .undo: body = .undo(try UndoPayload(from: &reader))
        case .enroll: body = .enroll(try EnrollPayload(from: &reader))
        case .revoke: body = .revoke(try RevokePayload(from: &reader))
        case .scan: body = .scan(try ScanPayload(from: &reader))
        case .badge: body = .badge(try BadgePayload(from: &reader))
        case .badgeCode: body = .badgeCode(try BadgeCodePayload(from: &reader))
        case .redemption: body = .redemption(try RedemptionPayload(from: &reader))
        case .session: body = .session(try SessionPayload(from: &reader))
        case .attendance: body = .attendance(try AttendancePayload(from: &reader))
        case .sessionRegistration: body = .sessionRegistration(try SessionRegistrationPayload(from: &reader))
        }
        try reader.expectEnd()
        return body
    }
}

extension DeltaPayload {
    fileprivate var kindOfSelf: DeltaKind { Self.kind }
}
