public import MusterControl

/// The kiosk screen's words in every language it speaks: one table (an exhaustive `switch`) per
/// language, each in its own file, so adding a ``KioskMessage`` fails to compile until every
/// language has it.
///
/// Translations are written for a hallway sign: short, polite, formal address (Sie, vous, usted,
/// u, Pan/Pani avoided by impersonal Polish forms).
public enum KioskCatalog {
    public static func text(_ message: KioskMessage, in language: ScreenLanguage) -> String {
        switch language {
        case .english: english(message)
        case .german: german(message)
        case .french: french(message)
        case .spanish: spanish(message)
        case .dutch: dutch(message)
        case .polish: polish(message)
        }
    }

    /// The same hint in every language, so each reader finds their own.
    static let languageHint =
        "Language · Sprache · Langue · Idioma · Taal · Język: en de fr es nl pl"

    /// The answers that mean yes in any of the languages, so a person's own word always works.
    static let yesWords: Set<String> = ["y", "yes", "j", "ja", "o", "oui", "s", "si", "sí", "t", "tak"]
}
