/// What a kiosk's badges look like: the label size and the fields, from `[badge]` in the config.
public struct BadgeLayout: Sendable, Hashable {
    public var size: BadgeSize
    public var fields: [BadgeField]
    /// Fields per ticket type (`[badge.types]`, issue 35), by the type without case: a speaker's badge
    /// can carry a band and no company, a VIP's a band above the name. A type not named here, or no
    /// type, gets ``fields``.
    public var typeFields: [String: [BadgeField]]

    public static let standard = BadgeLayout(size: .label62x100, fields: BadgeField.standard)

    public init(size: BadgeSize, fields: [BadgeField], typeFields: [String: [BadgeField]] = [:]) {
        self.size = size
        self.fields = fields
        self.typeFields = Dictionary(
            typeFields.map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { a, _ in a }
        )
    }

    /// The layout the config's text describes (`[badge] size`, `fields`, `[badge.types]`): the one
    /// reading of it, for the daemon's desk and `muster badge preview` alike.
    public static func parsing(
        size: String,
        fields: [String],
        typeFields: [String: [String]] = [:]
    ) throws(BadgeError) -> BadgeLayout {
        var perType: [String: [BadgeField]] = [:]
        for (type, names) in typeFields { perType[type] = try Self.fields(parsing: names) }
        return BadgeLayout(
            size: try BadgeSize(parsing: size),
            fields: try Self.fields(parsing: fields),
            typeFields: perType
        )
    }

    /// The fields of a badge for a ticket of `ticketType`.
    public func fields(for ticketType: String) -> [BadgeField] {
        typeFields[ticketType.lowercased()] ?? fields
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
