import MusterCore
import TOMLKit

extension KioskConfig {
    /// The keys of the `[screen]` table, each documented in `config/musterd.toml`.
    static let screenKeys: Set<String> = [
        "language", "outcome_seconds", "idle_seconds", "free_misses", "first_backoff_seconds",
        "max_backoff_seconds", "miss_memory_seconds", "bell", "large_welcome", "clear_lines", "columns", "user",
        "redeem",
    ]

    /// Reads `[screen]`: every key optional, every value checked, unknown keys refused (a typo in a
    /// timeout must not silently leave a name on a public screen for the default time).
    static func parseScreen(
        _ value: any TOMLValueConvertible,
        file: String,
        over base: ScreenOptions = ScreenOptions()
    ) throws(ConfigError) -> ScreenOptions {
        guard let table = value.table else { throw ConfigError(file: file, "'screen' must be a table ([screen])") }
        for key in table.keys where !screenKeys.contains(key) {
            throw ConfigError(
                file: file,
                "unknown key 'screen.\(key)' (known keys: \(screenKeys.sorted().joined(separator: ", ")))"
            )
        }
        var options = base
        if let value = table["language"] {
            guard let code = value.string, let language = ScreenLanguage(rawValue: code) else {
                let codes = ScreenLanguage.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigError(file: file, "'screen.language' must be one of \(codes)")
            }
            options.language = language
        }
        if let value = table["user"] {
            guard let name = value.string, !name.isEmpty, name.utf8.count <= 32,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else {
                throw ConfigError(file: file, "'screen.user' must be a user name (letters, digits, - _ .)")
            }
            options.user = name
        }
        if let value = table["redeem"] {
            guard let addon = value.string?.trimmingWhitespace(), !addon.isEmpty,
                addon.utf8.count <= AttendeeDetails.maxAddonBytes, TerminalText.sanitize(addon) == addon
            else {
                throw ConfigError(file: file, "'screen.redeem' must name an add-on (as the attendee list names it)")
            }
            options.redeem = addon
        }
        func seconds(_ key: String, minimum: Int) throws(ConfigError) -> Duration? {
            guard let value = table[key] else { return nil }
            guard let number = value.int, number >= minimum else {
                throw ConfigError(file: file, "'screen.\(key)' must be an integer of at least \(minimum)")
            }
            return .seconds(number)
        }
        if let value = try seconds("outcome_seconds", minimum: 1) { options.outcomeTimeout = value }
        if let value = try seconds("idle_seconds", minimum: 1) { options.idleTimeout = value }
        if let value = try seconds("first_backoff_seconds", minimum: 1) { options.firstBackoff = value }
        if let value = try seconds("max_backoff_seconds", minimum: 1) { options.maxBackoff = value }
        if let value = try seconds("miss_memory_seconds", minimum: 1) { options.missMemory = value }
        if let value = table["free_misses"] {
            guard let number = value.int, number >= 0 else {
                throw ConfigError(file: file, "'screen.free_misses' must be an integer of at least 0")
            }
            options.freeMisses = number
        }
        for (key, minimum, path) in [
            ("clear_lines", 1, \ScreenOptions.clearLines), ("columns", 40, \ScreenOptions.columns),
        ] {
            guard let value = table[key] else { continue }
            guard let number = value.int, number >= minimum, number <= 1000 else {
                throw ConfigError(file: file, "'screen.\(key)' must be an integer from \(minimum) to 1000")
            }
            options[keyPath: path] = number
        }
        for (key, path) in [("bell", \ScreenOptions.bell), ("large_welcome", \ScreenOptions.largeWelcome)] {
            guard let value = table[key] else { continue }
            guard let flag = value.bool else { throw ConfigError(file: file, "'screen.\(key)' must be true or false") }
            options[keyPath: path] = flag
        }
        guard options.firstBackoff <= options.maxBackoff else {
            throw ConfigError(file: file, "'screen.first_backoff_seconds' must not exceed 'screen.max_backoff_seconds'")
        }
        return options
    }
}
