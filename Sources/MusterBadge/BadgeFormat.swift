/// The file a badge is rendered to: PDF for CUPS (vector, exact size), PNG for a preview on screen
/// or in the README.
public enum BadgeFormat: String, Sendable, Hashable, CaseIterable {
    case pdf
    case png

    /// The format a preview path asks for by its extension (`badge.pdf`, `badge.png`).
    public init(path: String) throws(BadgeError) {
        let lower = path.lowercased()
        if lower.hasSuffix(".pdf") {
            self = .pdf
        } else if lower.hasSuffix(".png") {
            self = .png
        } else {
            throw BadgeError(.badLayout, "the badge file '\(path)' must end in .pdf or .png")
        }
    }
}
