import Foundation
import MusterCore

/// Reads what a list says of a ticket beyond its holder (``AttendeeDetails``, issue 35) from one row:
/// the type, the order, add-ons, the attention flag and text, and the validity. Each export names
/// them its own way (``AttendeeListColumns``); this is the one place their values are read.
struct AttendeeListDetails {
    var ticketType: Int?
    var order: Int?
    var addons: Int?
    var attention: Int?
    var attentionText: Int?
    var validFrom: Int?
    var validUntil: Int?

    static let genericTypeAliases = ["type", "ticket type", "product"]
    static let genericOrderAliases = ["order", "order code", "order #"]
    static let genericAddonAliases = ["addons", "add-ons", "add ons"]
    static let genericAttentionAliases = ["attention", "checkin attention", "check-in attention"]
    static let genericAttentionTextAliases = ["attention text", "checkin text", "check-in text"]
    static let validFromAliases = ["valid from"]
    static let validUntilAliases = ["valid until"]

    /// Every alias a generic list may use for a detail, so a list of emails and types is a list.
    static let genericAliases =
        genericTypeAliases + genericOrderAliases + genericAddonAliases + genericAttentionAliases
        + genericAttentionTextAliases + validFromAliases + validUntilAliases

    init(format: AttendeeListFormat, find column: ([String]) -> Int?) {
        switch format {
        case .salesforce:
            break
        case .eventbrite:
            ticketType = column(["ticket type"])
            order = column(["order #"])
        case .pretix:
            // The check-in list export: `Product` is the product and its variation ("VIP – Friday"),
            // `Requires special attention` is Yes or No in the exporter's language.
            ticketType = column(["product"])
            order = column(["order code"])
            attention = column(["requires special attention", "checkin attention"])
            attentionText = column(["checkin text", "check-in text"])
            validFrom = column(Self.validFromAliases)
            validUntil = column(Self.validUntilAliases)
        case .generic:
            ticketType = column(Self.genericTypeAliases)
            order = column(Self.genericOrderAliases)
            addons = column(Self.genericAddonAliases)
            attention = column(Self.genericAttentionAliases)
            attentionText = column(Self.genericAttentionTextAliases)
            validFrom = column(Self.validFromAliases)
            validUntil = column(Self.validUntilAliases)
        }
    }

    var used: [Int] { [ticketType, order, addons, attention, attentionText, validFrom, validUntil].compactMap { $0 } }

    /// The details of one row; nil when it says none of them.
    func read(
        _ record: CSVRecord,
        header: [String],
        text: (Int?) -> String
    ) throws(AttendeeListError) -> AttendeeDetails? {
        func invalid(_ index: Int?, _ expected: String) -> AttendeeListError {
            let field = index.map { AttendeeListText.trim(header[$0]) } ?? ""
            return AttendeeListError(
                line: record.line,
                reason: .invalidDetail(field: field, value: text(index), expected: expected)
            )
        }
        func bounded(_ index: Int?, _ limit: Int, _ what: String) throws(AttendeeListError) -> String? {
            let value = text(index)
            guard !value.isEmpty else { return nil }
            guard value.utf8.count <= limit else { throw invalid(index, "\(what) of at most \(limit) bytes") }
            return value
        }
        var addons: [String] = []
        for addon in text(self.addons).split(separator: "|").map({ AttendeeListText.trim(String($0)) })
        where !addon.isEmpty && !addons.contains(addon) {
            guard addon.utf8.count <= AttendeeDetails.maxAddonBytes else {
                throw invalid(self.addons, "add-ons of at most \(AttendeeDetails.maxAddonBytes) bytes each, split by |")
            }
            addons.append(addon)
        }
        guard addons.count <= AttendeeDetails.maxAddons else {
            throw invalid(self.addons, "at most \(AttendeeDetails.maxAddons) add-ons, split by |")
        }
        let flag = text(attention)
        guard let attention = Self.flag(flag) else { throw invalid(attention, "yes or no") }
        let from = text(validFrom)
        let until = text(validUntil)
        guard let fromMillis = Self.instant(from, endOfDay: false) else {
            throw invalid(validFrom, "a date (2026-12-01) or date and time (2026-12-01 09:00, ISO 8601)")
        }
        guard let untilMillis = Self.instant(until, endOfDay: true) else {
            throw invalid(validUntil, "a date (2026-12-01) or date and time (2026-12-01 18:00, ISO 8601)")
        }
        if let fromMillis, let untilMillis, fromMillis >= untilMillis {
            throw invalid(validUntil, "a time after valid from")
        }
        let details = AttendeeDetails(
            ticketType: try bounded(ticketType, AttendeeDetails.maxTypeBytes, "a type"),
            order: try bounded(order, AttendeeDetails.maxOrderBytes, "an order code"),
            addons: addons,
            attention: attention,
            attentionText: try bounded(attentionText, AttendeeDetails.maxAttentionTextBytes, "a text"),
            validFromMillis: fromMillis,
            validUntilMillis: untilMillis
        )
        return details.isEmpty ? nil : details
    }

    /// A yes or no as lists write it (pretix writes it in its own language); empty is no. nil: neither.
    static func flag(_ value: String) -> Bool? {
        let word = AttendeeListText.comparable(value, spaceLike: [])
        if word.isEmpty || ["no", "n", "false", "0", "nein", "non", "nee", "nie"].contains(word) { return false }
        if ["yes", "y", "true", "1", "x", "ja", "oui", "sí", "si", "tak"].contains(word) { return true }
        return nil
    }

    /// An instant a list gives: ISO 8601 with an offset (pretix's API and exports), or a local date and
    /// time, or a date alone: its start for `valid from`, the start of the next day for `valid until`
    /// (a ticket valid until 2026-12-01 admits all that day). `.some(nil)` for an empty cell, nil for
    /// one that is not a time.
    package static func instant(_ value: String, endOfDay: Bool) -> Int64?? {
        guard !value.isEmpty else { return .some(nil) }
        let zoned = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            zoned.formatOptions = options
            if let date = zoned.date(from: value) { return millis(date) }
        }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = .current
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            local.dateFormat = format
            if let date = local.date(from: value) { return millis(date) }
        }
        local.dateFormat = "yyyy-MM-dd"
        guard let day = local.date(from: value) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let start = calendar.startOfDay(for: day)
        guard endOfDay else { return millis(start) }
        return calendar.date(byAdding: .day, value: 1, to: start).map(millis)
    }

    private static func millis(_ date: Date) -> Int64? { Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) }
}
