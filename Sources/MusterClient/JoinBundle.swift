import MusterControl
public import MusterCore
import MusterCrypto
import MusterRules

/// What the organizer gives a kiosk so it can join the venue: the public venue facts, the venue
/// network key sealed to that kiosk's key (`crypto_box_seal`), and the organizer's certificate
/// enrolling it.
///
/// Written as `MUSTER-JOIN1:` followed by base32. Only the kiosk it was made for can open the
/// network key, so the bundle may be shown on screen, printed as a QR code or copied as a file.
public struct JoinBundle: Sendable {
    public static let prefix = "MUSTER-JOIN1:"
    public let venueName: String
    public let venue: VenueID
    public let organizer: AuthorID
    public let keyGeneration: UInt64
    public let sealedNetworkKey: [UInt8]
    public let certificate: SignedDelta

    public func encode() -> String {
        var writer = ByteWriter()
        writer.write("muster-join-bundle-v1")
        writer.write(venueName)
        writer.writeRaw(venue.bytes)
        writer.writeRaw(organizer.bytes)
        writer.write(keyGeneration)
        writer.writeBlob(sealedNetworkKey)
        writer.write(certificate)
        return Self.prefix + Base32.encode(writer.bytes)
    }

    public static func decode(_ text: String) throws(ClientError) -> JoinBundle {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.uppercased().hasPrefix(prefix) else {
            throw ClientError(.usage, "not a join bundle (it should start with \(prefix))")
        }
        guard let bytes = Base32.decode(trimmed.dropFirst(prefix.count)) else {
            throw ClientError(.usage, "the join bundle is damaged (not valid base32); copy it again")
        }
        var reader = ByteReader(bytes)
        let version: String
        let bundle: JoinBundle
        do {
            version = try reader.readString(maxLength: 64)
            let name = try reader.readString(maxLength: 256)
            let venue = VenueID(bytes: try reader.readRaw(count: VenueID.byteCount))!
            let organizer = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount))!
            let generation = try reader.readUInt64()
            let sealed = try reader.readBlob(maxLength: 256)
            let certificate: SignedDelta = try reader.read()
            try reader.expectEnd()
            bundle = JoinBundle(
                venueName: name,
                venue: venue,
                organizer: organizer,
                keyGeneration: generation,
                sealedNetworkKey: sealed,
                certificate: certificate
            )
        } catch {
            throw ClientError(.usage, "the join bundle is damaged; copy it again")
        }
        guard version == "muster-join-bundle-v1" else { throw ClientError(.usage, "unsupported join bundle version") }
        return bundle
    }
}
