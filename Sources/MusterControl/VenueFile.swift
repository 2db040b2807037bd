import Foundation
public import MusterCore
public import MusterCrypto
public import MusterRules
import TOMLKit

/// The venue file (`venue.toml`): venue id, the organizer's public key, and the 32-byte venue
/// network key that the sync layer uses as its capability.
///
/// Because it holds the network key it is written with mode 0600 and refused when group- or
/// world-readable. The network key is kept in ``SecureBytes`` and never printed.
public struct VenueFile: Sendable {
    public static let format = "muster-venue-v1"
    public let name: String
    public let venue: VenueID
    public let organizer: AuthorID
    public let networkKey: SecureBytes
    /// Which rotation of the network key this is (0 until the first revocation).
    public let keyGeneration: UInt64

    public init(name: String, venue: VenueID, organizer: AuthorID, networkKey: SecureBytes, keyGeneration: UInt64 = 0) {
        self.name = name
        self.venue = venue
        self.organizer = organizer
        self.networkKey = networkKey
        self.keyGeneration = keyGeneration
    }

    /// The same venue with a rotated network key.
    public func rotated(to key: SecureBytes, generation: UInt64) -> VenueFile {
        VenueFile(name: name, venue: venue, organizer: organizer, networkKey: key, keyGeneration: generation)
    }

    public var policy: VenuePolicy { VenuePolicy(venue: venue, organizer: organizer) }

    /// A new venue around an organizer key: fresh venue id and network key.
    public static func create(name: String, organizer: SigningPublicKey) throws -> VenueFile {
        VenueFile(
            name: name,
            venue: .random(),
            organizer: AuthorID(organizer),
            networkKey: try SecureBytes.random(count: 32)
        )
    }

    public func write(to path: String, overwrite: Bool = false) throws {
        let keyHex = networkKey.withUnsafeBytes { Hex.encode($0) }
        let text = """
            # Muster venue file. It holds the venue network key: keep it secret (mode 0600).
            format = "\(Self.format)"
            name = \(Self.quote(name))
            venue_id = "\(venue.hex)"
            organizer = "\(organizer.hex)"
            network_key = "\(keyHex)"
            key_generation = \(keyGeneration)

            """
        try KeyFile.writeSecretFile(text, to: path, overwrite: overwrite)
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public static func load(path: String) throws(ConfigError) -> VenueFile {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ConfigError(file: path, "cannot read the venue file (\(String(cString: strerror(errno))))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigError(
                file: path,
                "the venue file holds the network key and must not be readable by others; run chmod 600 \(path)"
            )
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            throw ConfigError(file: path, "not a valid venue file")
        }
        guard table["format"]?.string == format else {
            throw ConfigError(file: path, "unknown venue file format (expected \(format))")
        }
        guard let venue = table["venue_id"]?.string.flatMap(VenueID.init(hex:)) else {
            throw ConfigError(file: path, "'venue_id' must be 32 hex digits")
        }
        guard let organizer = table["organizer"]?.string.flatMap(AuthorID.init(hex:)) else {
            throw ConfigError(file: path, "'organizer' must be a 64-hex-digit public key")
        }
        guard var raw = table["network_key"]?.string.flatMap(Hex.decode), raw.count == 32 else {
            throw ConfigError(file: path, "'network_key' must be 64 hex digits")
        }
        defer { for index in raw.indices { raw[index] = 0 } }
        guard let key = try? SecureBytes(copying: raw) else {
            throw ConfigError(file: path, "cannot allocate secure memory for the network key")
        }
        let generation = table["key_generation"]?.int ?? 0
        guard generation >= 0 else { throw ConfigError(file: path, "'key_generation' must not be negative") }
        return VenueFile(
            name: table["name"]?.string ?? "",
            venue: venue,
            organizer: organizer,
            networkKey: key,
            keyGeneration: UInt64(generation)
        )
    }
}
