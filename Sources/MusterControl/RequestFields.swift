import MusterCore

/// The fields of one request line whose operation is known, read the way each operation needs them:
/// the one place that says which field an operation requires and what a missing one is answered.
struct RequestFields {
    let fields: KeyedDecodingContainer<ControlRequestKey>
    let operation: ControlRequest.Operation

    /// A field the operation cannot do without: absent, null or blank is ``ControlRequestError/Code/incomplete``.
    func nonBlank(_ key: ControlRequestKey) throws -> String {
        guard let value = try fields.decodeIfPresent(String.self, forKey: key), !value.trimmingWhitespace().isEmpty
        else { throw ControlRequestError.incomplete(operation, key, "missing \(key.stringValue)") }
        return value
    }

    /// A text field the daemon checks itself (a walk-in's names, a note): absent reads as empty, which
    /// the daemon refuses in words as it refuses a blank one.
    func text(_ key: ControlRequestKey) throws -> String {
        try fields.decodeIfPresent(String.self, forKey: key) ?? ""
    }

    func author() throws -> AuthorID {
        guard let author = AuthorID(hex: try nonBlank(.author)) else {
            throw ControlRequestError.incomplete(operation, .author, "author must be a hex public key")
        }
        return author
    }

    /// `stage: true` holds the deltas; otherwise they apply, checked against `staged` when it is given.
    /// No `deltas` is an empty submission (it applies whatever is staged).
    func submission() throws -> OrganizerSubmission {
        let staging = try fields.decodeIfPresent(Bool.self, forKey: .stage) == true
        return OrganizerSubmission(
            deltas: try fields.decodeIfPresent([WireDelta].self, forKey: .deltas) ?? [],
            certificate: try fields.decodeIfPresent(WireDelta.self, forKey: .certificate),
            step: staging ? .stage : .apply(expectingStaged: try fields.decodeIfPresent(Int.self, forKey: .staged))
        )
    }

    /// The reason first (absent is self-service), then the attendee: by key if one is given, else by query.
    func badgeOrder() throws -> BadgeOrder {
        let reasonText = try fields.decodeIfPresent(String.self, forKey: .badgeReason)
        let reason: BadgePayload.Reason
        if let reasonText {
            guard let named = BadgePayload.Reason.allCases.first(where: { $0.description == reasonText }) else {
                throw ControlRequestError.incomplete(
                    operation,
                    .badgeReason,
                    "unknown badge reason '\(reasonText)' (self-service, reprint, print-only)"
                )
            }
            reason = named
        } else {
            reason = .selfService
        }
        if let key = try fields.decodeIfPresent(String.self, forKey: .attendeeKey), !key.isEmpty {
            return BadgeOrder(attendee: .key(key), reason: reason)
        }
        if let query = try fields.decodeIfPresent(String.self, forKey: .query), !query.isEmpty {
            return BadgeOrder(attendee: .query(query), reason: reason)
        }
        throw ControlRequestError.incomplete(operation, .attendeeKey, "missing attendeeKey or query")
    }
}
