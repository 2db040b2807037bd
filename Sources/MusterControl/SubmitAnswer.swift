/// `submitted`: what became of an organizer submission.
public enum SubmitAnswer: Sendable, Equatable {
    /// Held on the connection, not applied: how many deltas the connection now holds.
    case staged(Int)
    /// Applied in one transaction: how many deltas were new (copies of held ones are not counted).
    case applied(Int)
}

extension SubmitAnswer: ControlResponseFields {
    /// A staged answer says `applied: 0` too, as it always did, so an older client reads it either way.
    init(fields: KeyedDecodingContainer<ControlResponseKey>) throws {
        if let staged = try fields.decodeIfPresent(Int.self, forKey: .staged) {
            self = .staged(staged)
        } else {
            self = .applied(try fields.decode(Int.self, forKey: .applied))
        }
    }

    func encode(fields: inout KeyedEncodingContainer<ControlResponseKey>) throws {
        switch self {
        case .staged(let count):
            try fields.encode(0, forKey: .applied)
            try fields.encode(count, forKey: .staged)
        case .applied(let count):
            try fields.encode(count, forKey: .applied)
        }
    }
}
