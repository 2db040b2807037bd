import MusterCore

/// The TXT record of a `_muster._tcp` service: `v=<protocol version>`, `venue=<venue id hex>`,
/// `fp=<key fingerprint>`.
///
/// Parsing is strict because the record comes from anyone on the LAN: each value must have the
/// exact shape Muster writes (decimal version, 32 hex digits, a short lowercase `[0-9a-z-]`
/// fingerprint), so what reaches the sync layer and the logs is always short, printable ASCII.
/// Keys follow RFC 6763 §6: case-insensitive, only the first occurrence counts, entries without
/// `=` and unknown keys are ignored (so later versions can add keys).
struct MusterTXTRecord: Equatable, Sendable {
    /// The DNS-SD service type every kiosk publishes and browses.
    static let serviceType = "_muster._tcp"
    /// Longest fingerprint accepted; a full 32-byte key in hex is 64.
    static let maxFingerprintLength = 64
    /// Highest protocol version accepted, to keep `v=` a small number.
    static let maxProtocolVersion = 65_535

    let protocolVersion: Int
    /// Lowercase hex.
    let venueID: String
    /// Lowercase.
    let fingerprint: String

    /// Validates and normalizes (lowercases) the values this kiosk will announce.
    init(protocolVersion: Int, venueID: String, fingerprint: String) throws(TXTRecordError) {
        guard (0...Self.maxProtocolVersion).contains(protocolVersion) else { throw .malformed(key: "v") }
        guard let venue = VenueID(hex: venueID) else { throw .malformed(key: "venue") }
        let fingerprint = fingerprint.lowercased()
        guard Self.isValidFingerprint(fingerprint) else { throw .malformed(key: "fp") }
        self.protocolVersion = protocolVersion
        self.venueID = venue.hex
        self.fingerprint = fingerprint
    }

    /// Parses the raw entries of a resolved service's TXT record.
    init(entries: [[UInt8]]) throws(TXTRecordError) {
        var values: [String: [UInt8]] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0 else { continue }
            let key = String(decoding: entry[..<equals], as: UTF8.self).lowercased()
            if values[key] == nil { values[key] = Array(entry[(equals + 1)...]) }
        }
        func text(_ key: String) throws(TXTRecordError) -> String {
            guard let raw = values[key] else { throw .missing(key: key) }
            guard raw.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { throw .malformed(key: key) }
            return String(decoding: raw, as: UTF8.self)
        }
        let version = try text("v")
        guard version.utf8.count <= 5, version.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(version)
        else {
            throw .malformed(key: "v")
        }
        try self.init(protocolVersion: number, venueID: try text("venue"), fingerprint: try text("fp"))
    }

    /// The entries to publish, in a stable order.
    var entries: [String] {
        ["v=\(protocolVersion)", "venue=\(venueID)", "fp=\(fingerprint)"]
    }

    private static func isValidFingerprint(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxFingerprintLength
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == UInt8(ascii: "-")
            }
    }
}
