import MusterCore

/// Why Muster and a pretix did not agree. Never carries the token; a value from pretix is cut and
/// made safe for a terminal where it is quoted.
public enum PretixError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token file is missing, loose or not a token.
    case tokenFile(String, String)
    /// pretix could not be reached (the transport's words).
    case unreachable(String, String)
    /// pretix answered with an HTTP error: status, path, and its own words.
    case refused(Int, String, String)
    /// pretix answered something Muster cannot read.
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .tokenFile(let path, let why): "the token file \(Self.shown(path)) \(why)"
        case .unreachable(let url, let why): "cannot reach pretix at \(Self.shown(url)): \(Self.shown(why))"
        case .refused(let status, let path, let words):
            "pretix refused \(Self.shown(path)) with HTTP \(status)\(status == 401 ? " (check the token)" : ""): \(Self.shown(words))"
        case .unreadable(let path, let why): "pretix's answer to \(Self.shown(path)) cannot be read: \(Self.shown(why))"
        }
    }

    static func shown(_ text: String) -> String { TerminalText.sanitize(text, maxCharacters: 300) }
}
