import Foundation
import TOMLKit

/// The badge keys of the config (`printer`, `cups_server`, `[badge] size`, `fields`, `format`, `dpi`
/// and `fallback`).
///
/// Kept as plain text here, because `muster` and the config parser link no cairo; `musterd`
/// turns them into a layout at start-up (`MusterBadge.BadgeLayout`) and refuses to start on a
/// size or field it does not know, so a typo shows before the doors open.
public struct BadgeConfig: Sendable, Equatable {
    /// The CUPS queue badges print on (`lpstat -p`); nil: this kiosk prints no badges.
    public var printer: String?
    /// The cupsd to talk to: its socket path or host[:port]; nil: libcups's default (the local
    /// cupsd). Set only to use another machine's CUPS or, in tests, a private one.
    public var cupsServer: String?
    /// `62x100` (mm), `a6`, `4x3in`, or any `WxH[mm|in]`.
    public var size: String = "62x100"
    /// Drawn top to bottom; the QR code goes at the bottom. Known: event, first_name, last_name,
    /// company, qr.
    public var fields: [String] = ["event", "first_name", "last_name", "company", "qr"]
    /// `[badge.types]`: the fields of the badge of one ticket type, by the type as the list names it
    /// (`VIP = ["type", "first_name", "last_name", "qr"]`); a type not named gets ``fields``.
    public var typeFields: [String: [String]] = [:]
    /// What the queue is fed: `pdf` (any CUPS driver queue) or `zpl` (a raw queue on a Zebra).
    public var format: String = "pdf"
    /// The Zebra's resolution for `zpl` (203, 300 or 600 dots per inch); unused for a PDF.
    public var dotsPerInch: Int = 203
    /// `[badge] fallback = "Desk B"`: the peer kiosk (its name, or its location) that prints a
    /// self-service badge when this kiosk's queue is stopped, refusing, unreachable or absent; nil:
    /// the attendee is sent to the staff desk then.
    public var fallback: String?

    /// Whether the screen asks for a badge after a check-in: a queue here, or a peer to print on.
    public var printsBadges: Bool { printer != nil || fallback != nil }

    public init() {}

    /// The top-level keys this reads, for the config's unknown-key check.
    static let keys: Set<String> = ["printer", "cups_server", "badge"]

    /// The badge keys `table` sets, over `base`.
    static func parse(
        _ table: TOMLTable,
        file: String,
        over base: BadgeConfig = BadgeConfig()
    ) throws(ConfigError)
        -> BadgeConfig
    {
        var config = base
        if let value = table["printer"] {
            guard let text = value.string else { throw ConfigError(file: file, "'printer' must be a string") }
            config.printer = text.isEmpty ? nil : text
        }
        if let value = table["cups_server"] {
            guard let text = value.string else { throw ConfigError(file: file, "'cups_server' must be a string") }
            config.cupsServer = text.isEmpty ? nil : text
        }
        guard let value = table["badge"] else { return config }
        guard let badge = value.table else { throw ConfigError(file: file, "'badge' must be a table ([badge])") }
        for key in badge.keys where !["size", "fields", "format", "dpi", "fallback", "types"].contains(key) {
            throw ConfigError(
                file: file,
                "unknown key 'badge.\(key)' (known keys: badge.dpi, badge.fallback, badge.fields, badge.format, badge.size, badge.types)"
            )
        }
        if let fallback = badge["fallback"] {
            guard let text = fallback.string else {
                throw ConfigError(file: file, "'badge.fallback' must be a string (a peer kiosk's name)")
            }
            let name = text.trimmingCharacters(in: .whitespaces)
            config.fallback = name.isEmpty ? nil : name
        }
        if let format = badge["format"] {
            guard let text = format.string, ["pdf", "zpl"].contains(text) else {
                throw ConfigError(file: file, "'badge.format' must be \"pdf\" or \"zpl\"")
            }
            config.format = text
        }
        if let dpi = badge["dpi"] {
            guard let value = dpi.int, [203, 300, 600].contains(value) else {
                throw ConfigError(file: file, "'badge.dpi' must be 203, 300 or 600 (the Zebra's resolution)")
            }
            config.dotsPerInch = value
        }
        if let size = badge["size"] {
            guard let text = size.string else { throw ConfigError(file: file, "'badge.size' must be a string") }
            config.size = text
        }
        if let fields = badge["fields"] {
            guard let array = fields.array else { throw ConfigError(file: file, "'badge.fields' must be an array") }
            config.fields = []
            for element in array {
                guard let name = element.string else {
                    throw ConfigError(file: file, "'badge.fields' entries must be strings")
                }
                config.fields.append(name)
            }
        }
        if let types = badge["types"] {
            guard let table = types.table else { throw ConfigError(file: file, "'badge.types' must be a table") }
            for type in table.keys {
                guard let array = table[type]?.array, !type.isEmpty else {
                    throw ConfigError(file: file, "'badge.types.\(type)' must be an array of field names")
                }
                var names: [String] = []
                for element in array {
                    guard let name = element.string else {
                        throw ConfigError(file: file, "'badge.types.\(type)' entries must be strings")
                    }
                    names.append(name)
                }
                config.typeFields[type] = names
            }
        }
        return config
    }
}
