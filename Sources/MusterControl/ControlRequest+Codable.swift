import Foundation
import MusterCore

/// The request line: one flat JSON object, `op` naming the operation beside the fields it uses, as
/// `muster`, the kiosk screen and scripts have always written it (the recorded lines in
/// `RecordedControlLines` are the reference). Fields an operation does not use are ignored, but every
/// field the protocol knows must have its type, whichever operation the line names.
extension ControlRequest: Codable {
    /// Reads one line as the daemon does: a request, or a ``ControlRequestError`` that says how to answer.
    public static func read(_ line: some Collection<UInt8>) throws(ControlRequestError) -> ControlRequest {
        do {
            return try JSONDecoder().decode(ControlRequest.self, from: Data(line))
        } catch let error as ControlRequestError {
            throw error
        } catch {
            throw ControlRequestError(.malformed, "malformed control request", cause: error)
        }
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: ControlRequestKey.self)
        try Self.checkTypes(fields)
        let name = try fields.decode(String.self, forKey: .op)
        guard let operation = Operation(rawValue: name) else {
            throw ControlRequestError(.unknownOperation, "unknown operation '\(name)'")
        }
        let line = RequestFields(fields: fields, operation: operation)
        switch operation {
        case .checkIn: self = .checkIn(query: try line.nonBlank(.query))
        case .confirmCheckIn:
            self = .confirmCheckIn(query: try line.nonBlank(.query), staff: try line.nonBlank(.staff))
        case .checkOut: self = .checkOut(query: try line.nonBlank(.query))
        case .checkInParty: self = .checkInParty(query: try line.nonBlank(.query))
        case .redeem: self = .redeem(addon: try line.nonBlank(.addon), query: try line.nonBlank(.query))
        case .lookup: self = .lookup(query: try line.nonBlank(.query))
        case .register:
            self = .register(
                WalkInRegistration(
                    firstName: try line.text(.firstName),
                    lastName: try line.text(.lastName),
                    email: try line.text(.email),
                    company: try line.text(.company)
                )
            )
        case .note: self = .note(attendeeKey: try line.nonBlank(.attendeeKey), text: try line.text(.text))
        case .head: self = .head(author: try line.author())
        case .submit: self = .submit(try line.submission())
        case .badge: self = .badge(try line.badgeOrder())
        case .status: self = .status
        case .ping: self = .ping
        case .screen: self = .screen
        case .attend:
            self = .attend(
                query: try line.nonBlank(.query),
                code: try fields.decodeIfPresent(String.self, forKey: .code)
            )
        case .openSpot:
            self = .openSpot(name: try line.nonBlank(.session), seconds: try fields.decode(Int.self, forKey: .seconds))
        case .replaceBadge:
            self = .replaceBadge(
                query: try line.nonBlank(.query),
                restore: try fields.decodeIfPresent(Bool.self, forKey: .restore) ?? false
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: ControlRequestKey.self)
        try fields.encode(operation.rawValue, forKey: .op)
        switch self {
        case .checkIn(let query), .checkOut(let query), .lookup(let query), .checkInParty(let query):
            try fields.encode(query, forKey: .query)
        case .redeem(let addon, let query):
            try fields.encode(addon, forKey: .addon)
            try fields.encode(query, forKey: .query)
        case .confirmCheckIn(let query, let staff):
            try fields.encode(query, forKey: .query)
            try fields.encode(staff, forKey: .staff)
        case .register(let walkIn):
            try fields.encode(walkIn.firstName, forKey: .firstName)
            try fields.encode(walkIn.lastName, forKey: .lastName)
            try fields.encode(walkIn.email, forKey: .email)
            try fields.encode(walkIn.company, forKey: .company)
        case .note(let attendeeKey, let text):
            try fields.encode(attendeeKey, forKey: .attendeeKey)
            try fields.encode(text, forKey: .text)
        case .head(let author):
            try fields.encode(author.hex, forKey: .author)
        case .submit(let submission):
            try fields.encode(submission.deltas, forKey: .deltas)
            try fields.encodeIfPresent(submission.certificate, forKey: .certificate)
            switch submission.step {
            case .stage: try fields.encode(true, forKey: .stage)
            case .apply(let expected): try fields.encodeIfPresent(expected, forKey: .staged)
            }
        case .badge(let order):
            switch order.attendee {
            case .key(let key): try fields.encode(key, forKey: .attendeeKey)
            case .query(let query): try fields.encode(query, forKey: .query)
            }
            try fields.encode(order.reason.description, forKey: .badgeReason)
        case .replaceBadge(let query, let restore):
            try fields.encode(query, forKey: .query)
            if restore { try fields.encode(true, forKey: .restore) }
        case .attend(let query, let code):
            try fields.encode(query, forKey: .query)
            try fields.encodeIfPresent(code, forKey: .code)
        case .openSpot(let name, let seconds):
            try fields.encode(name, forKey: .session)
            try fields.encode(seconds, forKey: .seconds)
        case .status, .ping, .screen:
            break
        }
    }

    /// Every field the protocol knows has its type in any request (a line with `"deltas": 5` is no
    /// request, whatever its `op`), as when requests were one struct of optional fields.
    private static func checkTypes(_ fields: KeyedDecodingContainer<ControlRequestKey>) throws {
        for key in fields.allKeys {
            switch key {
            case .op, .query, .firstName, .lastName, .email, .company, .attendeeKey, .text, .author, .badgeReason,
                .staff, .addon, .code, .session:
                _ = try fields.decodeIfPresent(String.self, forKey: key)
            case .deltas: _ = try fields.decodeIfPresent([WireDelta].self, forKey: key)
            case .certificate: _ = try fields.decodeIfPresent(WireDelta.self, forKey: key)
            case .stage, .restore: _ = try fields.decodeIfPresent(Bool.self, forKey: key)
            case .staged, .seconds: _ = try fields.decodeIfPresent(Int.self, forKey: key)
            }
        }
    }
}
