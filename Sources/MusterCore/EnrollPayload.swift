/// Adds a kiosk to the venue roster. Organizer only.
///
/// The signed delta doubles as the kiosk's certificate: a kiosk presents its own enrollment delta
/// when a session starts, and any kiosk that knows the organizer's key can check it from the
/// signature alone, without the rest of the organizer's chain. A kiosk key that was revoked can
/// never be enrolled again (the kiosk makes a new key instead).
///
/// `role` says whether the key is a kiosk or an organizer device (``EnrollRole``). It is encoded
/// only for a device, so a kiosk's certificate is byte for byte what it was before roles existed.
public struct EnrollPayload: DeltaPayload {
    public static let kind = DeltaKind.enroll
    public var kiosk: AuthorID
    public var name: String
    public var location: String
    public var role: EnrollRole

    public init(kiosk: AuthorID, name: String, location: String, role: EnrollRole = .kiosk) {
        self.kiosk = kiosk
        self.name = name
        self.location = location
        self.role = role
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(kiosk, name, location)
        if role != .kiosk { writer.write(role) }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let kiosk: AuthorID = try reader.read()
        let name = try reader.readString(maxLength: 128)
        let location = try reader.readString(maxLength: 128)
        let start = reader.offset
        let role = try reader.readTail { (reader: inout ByteReader) throws(DecodeError) in
            try reader.read(EnrollRole.self)
        }
        // One encoding per certificate: a kiosk's role is never written out.
        guard role != .kiosk else { throw .invalidValue(at: start, "a kiosk's role is implied, not encoded") }
        self.init(kiosk: kiosk, name: name, location: location, role: role ?? .kiosk)
    }
}
