/// What a kiosk's badges look like: the label size and the fields, from `[badge]` in the config.
public struct BadgeLayout: Sendable, Hashable {
    public var size: BadgeSize
    public var fields: [BadgeField]

    public static let standard = BadgeLayout(size: .label62x100, fields: BadgeField.standard)

    public init(size: BadgeSize, fields: [BadgeField]) {
        self.size = size
        self.fields = fields
    }

    /// Reads the field list as the config writes it (`["event", "first_name", "qr"]`): each name
    /// once, at least one, and nothing unknown, so a typo fails at start-up rather than at the door.
    public static func fields(parsing names: [String]) throws(BadgeError) -> [BadgeField] {
        var fields: [BadgeField] = []
        for name in names {
            guard let field = BadgeField(rawValue: name) else {
                let known = BadgeField.allCases.map(\.rawValue).joined(separator: ", ")
                throw BadgeError(.badLayout, "unknown badge field '\(name)' (known: \(known))")
            }
            guard !fields.contains(field) else {
                throw BadgeError(.badLayout, "badge field '\(name)' is listed twice")
            }
            fields.append(field)
        }
        guard !fields.isEmpty else { throw BadgeError(.badLayout, "a badge needs at least one field") }
        return fields
    }
}
