import MusterCore

/// A language the public kiosk screen speaks, named by its ISO 639-1 code.
///
/// It lives beside the config so that `[screen] language` is checked when the file is read, not when
/// the first attendee walks up. The texts themselves are in MusterClient's `KioskCatalog`.
public enum ScreenLanguage: String, Sendable, Equatable, CaseIterable, Codable {
    case english = "en"
    case german = "de"
    case french = "fr"
    case spanish = "es"
    case dutch = "nl"
    case polish = "pl"

    /// The language's own name, so a person who reads only that language still finds it.
    public var nativeName: String {
        switch self {
        case .english: "English"
        case .german: "Deutsch"
        case .french: "Français"
        case .spanish: "Español"
        case .dutch: "Nederlands"
        case .polish: "Polski"
        }
    }

    /// The code as typed at the kiosk prompt (`de`, `FR`, ` pl `), or nil for anything else.
    public init?(typed text: String) {
        self.init(rawValue: text.trimmingWhitespace().lowercased())
    }
}
