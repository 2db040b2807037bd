/// Bytes as a table key (an envelope, a signature), hashed in one pass: a `[UInt8]` key feeds the
/// hasher a byte at a time. The copies a run passes around share their arrays, so a hit compares
/// them by identity.
struct BytesKey: Hashable, Sendable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
