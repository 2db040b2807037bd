/// What pretix's REST API (`/api/v1`, 2026.8) answers for a check-in list, as far as an import reads
/// it: the positions of the list, the event's products, and its orders. Field names are pretix's;
/// fetching the pages is MusterPretix's.
public enum PretixRecords {
    /// One position (a ticket or an add-on) of `/checkinlists/{id}/positions/`.
    public struct Position: Decodable, Sendable, Equatable {
        public let id: Int
        public let order: String
        public let item: Int
        public let variation: Int?
        public let attendeeName: String?
        public let attendeeNameParts: [String: String]?
        public let attendeeEmail: String?
        public let secret: String
        /// The parent position's `id` for an add-on, nil for a ticket of its own.
        public let addonTo: Int?
        public let company: String?
        /// The order's, the product's or the variation's check-in attention.
        public let requireAttention: Bool?
        /// `p` paid, `n` pending, `c` canceled, `e` expired.
        public let orderStatus: String?
        public let validFrom: String?
        public let validUntil: String?

        enum CodingKeys: String, CodingKey {
            case id, order, item, variation, secret, company
            case attendeeName = "attendee_name"
            case attendeeNameParts = "attendee_name_parts"
            case attendeeEmail = "attendee_email"
            case addonTo = "addon_to"
            case requireAttention = "require_attention"
            case orderStatus = "order__status"
            case validFrom = "valid_from"
            case validUntil = "valid_until"
        }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            id = try fields.decode(Int.self, forKey: .id)
            order = try fields.decode(String.self, forKey: .order)
            item = try fields.decode(Int.self, forKey: .item)
            variation = try fields.decodeIfPresent(Int.self, forKey: .variation)
            attendeeName = try fields.decodeIfPresent(String.self, forKey: .attendeeName)
            // The scheme's parts are strings, but a scheme may hold other values (`_legacy`): keep the strings.
            attendeeNameParts = (try? fields.decodeIfPresent([String: LenientString].self, forKey: .attendeeNameParts))?
                .flatMap { $0 }?.compactMapValues(\.value)
            attendeeEmail = try fields.decodeIfPresent(String.self, forKey: .attendeeEmail)
            secret = try fields.decode(String.self, forKey: .secret)
            addonTo = try fields.decodeIfPresent(Int.self, forKey: .addonTo)
            company = try fields.decodeIfPresent(String.self, forKey: .company)
            requireAttention = try fields.decodeIfPresent(Bool.self, forKey: .requireAttention)
            orderStatus = try fields.decodeIfPresent(String.self, forKey: .orderStatus)
            validFrom = try fields.decodeIfPresent(String.self, forKey: .validFrom)
            validUntil = try fields.decodeIfPresent(String.self, forKey: .validUntil)
        }
    }

    /// A product of `/items/`, its name in every language, and its variations.
    public struct Item: Decodable, Sendable, Equatable {
        public struct Variation: Decodable, Sendable, Equatable {
            public let id: Int
            public let value: [String: String]
            public let checkinText: String?

            enum CodingKeys: String, CodingKey {
                case id, value
                case checkinText = "checkin_text"
            }
        }

        public let id: Int
        public let name: [String: String]
        public let admission: Bool
        public let checkinText: String?
        public let variations: [Variation]

        enum CodingKeys: String, CodingKey {
            case id, name, admission, variations
            case checkinText = "checkin_text"
        }
    }

    /// An order of `/orders/`: its email (a position without an attendee email has the order's) and
    /// its own check-in text.
    public struct Order: Decodable, Sendable, Equatable {
        public let code: String
        public let email: String?
        public let checkinText: String?

        enum CodingKeys: String, CodingKey {
            case code, email
            case checkinText = "checkin_text"
        }
    }

    /// A JSON value read as a string when it is one, nil otherwise.
    struct LenientString: Decodable, Sendable {
        let value: String?

        init(from decoder: any Decoder) throws {
            value = try? decoder.singleValueContainer().decode(String.self)
        }
    }

    /// A name in the event's languages: English if there is one, else the first by language code.
    static func localized(_ name: [String: String]) -> String {
        name["en"] ?? name.sorted { $0.key < $1.key }.first?.value ?? ""
    }
}
