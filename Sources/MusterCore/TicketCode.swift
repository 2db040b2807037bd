/// Ticket codes that kiosks make up: `W-` for walk-ins, `R-` for a replaced badge (`muster badge
/// replace`), and eight Crockford base-32 characters (no I, L, O, U), 40 random bits, easy to read
/// aloud and to type.
public enum TicketCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    public static func walkIn(using generator: inout some RandomNumberGenerator) -> String {
        "W-" + random(using: &generator)
    }

    /// A replaced badge's new code.
    public static func replacement(using generator: inout some RandomNumberGenerator) -> String {
        "R-" + random(using: &generator)
    }

    static func random(using generator: inout some RandomNumberGenerator) -> String {
        String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    public static func walkIn() -> String {
        var generator = SystemRandomNumberGenerator()
        return walkIn(using: &generator)
    }

    /// How a typed or scanned code is compared: trimmed, case-insensitive.
    public static func normalize(_ code: String) -> String { code.trimmingWhitespace().uppercased() }
}
