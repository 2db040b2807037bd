import Foundation
import MusterCore

extension AttendeeListImport {
    /// A pretix check-in list read through its REST API as an import, as its CSV export would be and
    /// more: every ticket a person (the position's attendee email, else its order's), its product and
    /// variation the ticket type ("VIP – Friday", as pretix writes them), its order the party, its
    /// add-on positions the ticket's add-ons, the check-in attention and its texts (the order's, the
    /// variation's and the product's, as pretix shows them at its own door), and its validity.
    ///
    /// All or nothing, as a file: a position that cannot be read stops the import with its id as the
    /// line. A ticket without any email is skipped and reported, as a row without one.
    public static func pretix(
        positions: [PretixRecords.Position],
        items: [PretixRecords.Item],
        orders: [PretixRecords.Order]
    ) throws(AttendeeListError) -> AttendeeListImport {
        let items = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let orders = Dictionary(orders.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        var addons: [Int: [String]] = [:]
        for position in positions {
            guard let parent = position.addonTo, let item = items[position.item] else { continue }
            addons[parent, default: []].append(AttendeeListText.clean(PretixRecords.localized(item.name)))
        }
        var rows: [AttendeeListRow] = []
        var skipped: [Skip] = []
        for position in positions where position.addonTo == nil {
            guard let item = items[position.item] else {
                throw AttendeeListError(
                    line: position.id,
                    reason: .invalidDetail(field: "item", value: "\(position.item)", expected: "a product of the event")
                )
            }
            // A product that admits nobody (a voucher sold alone) is no ticket at a door.
            guard item.admission else { continue }
            let order = orders[position.order]
            let email = AttendeeListText.trim(position.attendeeEmail ?? order?.email ?? "")
            guard !email.isEmpty else {
                skipped.append(Skip(line: position.id, reason: "no email address on the position or its order"))
                continue
            }
            guard AttendeeListText.isPlausibleEmail(email) else {
                throw AttendeeListError(line: position.id, reason: .invalidEmail(email))
            }
            rows.append(try row(position, item: item, order: order, email: email, addons: addons[position.id] ?? []))
        }
        return folding(rows, format: .pretix, skipped: skipped)
    }

    private static func row(
        _ position: PretixRecords.Position,
        item: PretixRecords.Item,
        order: PretixRecords.Order?,
        email: String,
        addons: [String]
    ) throws(AttendeeListError) -> AttendeeListRow {
        let variation = position.variation.flatMap { id in item.variations.first { $0.id == id } }
        var type = PretixRecords.localized(item.name)
        if let variation { type += " – " + PretixRecords.localized(variation.value) }
        let texts = [order?.checkinText, variation?.checkinText, item.checkinText]
            .compactMap { $0.map(AttendeeListText.clean) }.filter { !$0.isEmpty }
        var first = AttendeeListText.clean(position.attendeeNameParts?["given_name"] ?? "")
        var last = AttendeeListText.clean(position.attendeeNameParts?["family_name"] ?? "")
        if first.isEmpty && last.isEmpty { (first, last) = AttendeeListText.splitName(position.attendeeName ?? "") }
        func instant(_ value: String?, _ field: String, endOfDay: Bool) throws(AttendeeListError) -> Int64? {
            guard let value, !value.isEmpty else { return nil }
            guard let millis = AttendeeListDetails.instant(value, endOfDay: endOfDay) else {
                throw AttendeeListError(
                    line: position.id,
                    reason: .invalidDetail(field: field, value: value, expected: "an ISO 8601 time")
                )
            }
            return millis
        }
        type = AttendeeListText.clean(type)
        var unique: [String] = []
        for addon in addons where !addon.isEmpty && !unique.contains(addon) { unique.append(addon) }
        guard type.utf8.count <= AttendeeDetails.maxTypeBytes,
            unique.allSatisfy({ $0.utf8.count <= AttendeeDetails.maxAddonBytes }),
            unique.count <= AttendeeDetails.maxAddons,
            position.order.utf8.count <= AttendeeDetails.maxOrderBytes
        else {
            throw AttendeeListError(
                line: position.id,
                reason: .invalidDetail(
                    field: "item",
                    value: type,
                    expected: "a product name of at most \(AttendeeDetails.maxTypeBytes) bytes with at most "
                        + "\(AttendeeDetails.maxAddons) add-ons"
                )
            )
        }
        let details = AttendeeDetails(
            ticketType: type.isEmpty ? nil : type,
            order: position.order,
            addons: unique,
            attention: position.requireAttention ?? false,
            attentionText: texts.isEmpty
                ? nil : String(texts.joined(separator: " · ").prefix(AttendeeDetails.maxAttentionTextBytes / 4)),
            validFromMillis: try instant(position.validFrom, "valid_from", endOfDay: false),
            validUntilMillis: try instant(position.validUntil, "valid_until", endOfDay: true)
        )
        let status = position.orderStatus
        return AttendeeListRow(
            line: position.id,
            email: email,
            firstName: first,
            lastName: last,
            company: AttendeeListText.clean(position.company ?? ""),
            ticket: position.secret,
            status: status,
            admitted: AttendeeListRow.isAdmitted(status: status, format: .pretix),
            details: details.isEmpty ? nil : details
        )
    }
}
