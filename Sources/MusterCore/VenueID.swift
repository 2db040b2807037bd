/// The venue a delta belongs to: 16 random bytes from the venue file.
///
/// It is part of every signed delta, so bytes captured at one venue are refused at another.
public struct VenueID: Hashable, Sendable, CustomStringConvertible {
    public static let byteCount = 16
    public let bytes: [UInt8]

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    public init?(hex: String) {
        guard let raw = Hex.decode(hex) else { return nil }
        self.init(bytes: raw)
    }

    public static func random() -> VenueID {
        var generator = SystemRandomNumberGenerator()
        return VenueID(bytes: (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) })!
    }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }
}
