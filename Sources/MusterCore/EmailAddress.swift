/// Email normalization shared by imports, walk-in registration and lookups, so the same person is
/// found however their address was typed.
public enum EmailAddress {
    /// Trimmed (``EdgeTrim``) and lowercased: the identity of an attendee within a campaign. The one rule for
    /// imports, walk-in registration and lookups; a delta's attendee key must equal it (`VenuePolicy`).
    public static func key(_ email: String) -> String {
        EdgeTrim.trim(email).lowercased()
    }

    /// A plausibility check, not RFC 5322: one `@`, non-empty local part and a dotted-or-not domain,
    /// no whitespace or control characters, at most 254 bytes.
    public static func isPlausible(_ email: String) -> Bool {
        let trimmed = email.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 254 else { return false }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return !trimmed.unicodeScalars.contains { $0.properties.isWhitespace || TerminalText.isUnsafe($0) }
    }
}

extension String {
    /// Trims Unicode whitespace (including NBSP) at both ends without Foundation.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
