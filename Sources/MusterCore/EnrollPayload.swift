/// Adds a kiosk to the venue roster. Organizer only.
///
/// The signed delta doubles as the kiosk's certificate: a kiosk presents its own enrollment delta
/// when a session starts, and any kiosk that knows the organizer's key can check it from the
/// signature alone, without the rest of the organizer's chain. A kiosk key that was revoked can
/// never be enrolled again (the kiosk makes a new key instead).
public struct EnrollPayload: DeltaPayload {
    public static let kind = DeltaKind.enroll
    public var kiosk: AuthorID
    public var name: String
    public var location: String

    public init(kiosk: AuthorID, name: String, location: String) {
        self.kiosk = kiosk
        self.name = name
        self.location = location
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(kiosk, name, location)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(
            kiosk: try reader.read(),
            name: try reader.readString(maxLength: 128),
            location: try reader.readString(maxLength: 128)
        )
    }
}
