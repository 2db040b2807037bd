import Foundation
import MusterAttendeeList
import MusterRules

/// `AttendeeListImport.parse`, which reads whatever file an organizer downloaded from a CRM.
///
/// It may throw `AttendeeListError` (typed) or return rows. Returned rows keep the documented limits:
/// a plausible email of at most 254 UTF-8 bytes and unique by `emailKey`, its lowercased form; every other
/// field at most 1,000 characters, on one line, trimmed, without control or bidirectional-override
/// characters or runs of spaces; a Salesforce ID only if it is 15 or 18 ASCII letters and digits; line
/// numbers after the header, merges into earlier lines. Parsing the same bytes twice gives the same result
/// or the same error.
///
/// The standard `AttendeeListLimits` (64 KiB fields, 1 MiB records, 250,000 rows) are out of reach of small
/// inputs, so every input is parsed a third time under tiny limits: limits may only refuse a file, never
/// change what is read from it, so a success there must equal the standard result and stay within them.
final class CSVTarget: FuzzTarget {
    let name = "csv"
    static let maxFieldCharacters = 1_000
    static let maxEmailBytes = 254
    static let tightLimits = AttendeeListLimits(
        maximumFileBytes: 1 << 20,
        maximumRows: 40,
        csv: CSVLimits(maximumFieldBytes: 1_500, maximumRecordBytes: 4_096)
    )

    var dictionary: [[UInt8]] {
        [
            "\"", "\"\"", ",", ";", "\t", "\r\n", "\n", "\r", "\u{FEFF}", " ", "@", "Email", "email", "E-mail",
            "Campaign Member ID", "Member Status", "First Name", "Last Name", "Company / Account", "Order #",
            "Attendee #", "Barcode #", "Attendee Status", "Order code", "Secret", "Attendee name", "name", "ticket",
            "Refunded", "Cancelled", "\u{1B}[2J", "\u{202E}", "\u{200B}", "\u{00A0}", "\u{0301}", "\u{85}",
            "00v5g00000ABCDE", "a@b.c",
        ].map { Array($0.utf8) }
    }

    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64 {
        let data = Data(input)
        let first = Result { () throws(AttendeeListError) in try AttendeeListImport.parse(data) }
        let second = Result { () throws(AttendeeListError) in try AttendeeListImport.parse(data) }
        try PropertyFailure.check(first == second, "determinism", "two parses of the same bytes differ")
        let tight = Result { () throws(AttendeeListError) in
            try AttendeeListImport.parse(data, limits: Self.tightLimits)
        }
        var behaviour = Fingerprint()
        switch tight {
        case .success(let list):
            try PropertyFailure.check(
                tight == first,
                "limits",
                "a parse under tight limits differs from the standard one"
            )
            let records = list.rows.count + list.merged.count + list.skipped.count
            try PropertyFailure.check(
                records <= Self.tightLimits.maximumRows,
                "row-limit",
                "\(records) records read under a limit of \(Self.tightLimits.maximumRows)"
            )
        case .failure(let error):
            behaviour.mix(Mirror(reflecting: error.reason).children.first?.label ?? "\(error.reason)")
            if case .success = first {
                let refusedByLimit: Bool
                switch error.reason {
                case .tooManyRows: refusedByLimit = true
                case .csv(.fieldTooLong), .csv(.recordTooLong): refusedByLimit = true
                default: refusedByLimit = false
                }
                try PropertyFailure.check(
                    refusedByLimit,
                    "limits",
                    "tight limits refused a file the standard limits accept, for another reason: \(error)"
                )
            }
        }
        switch first {
        case .failure(let error):
            behaviour.mix("error")
            behaviour.mix(Mirror(reflecting: error.reason).children.first?.label ?? "\(error.reason)")
            if case .csv(let reason) = error.reason {
                behaviour.mix(Mirror(reflecting: reason).children.first?.label ?? "\(reason)")
            }
            try PropertyFailure.check(error.line >= 1, "line", "error on line \(error.line)")
        case .success(let list):
            behaviour.mix(list.format.rawValue)
            behaviour.mix(min(list.rows.count, 4))
            behaviour.mix(min(list.merged.count, 2))
            behaviour.mix(min(list.skipped.count, 2))
            try check(list)
        }
        return behaviour.value
    }

    private func check(_ list: AttendeeListImport) throws(PropertyFailure) {
        var keys = Set<String>()
        for row in list.rows {
            try PropertyFailure.check(
                Self.isPlausibleEmail(row.email),
                "email",
                "implausible email \(row.email.debugDescription)"
            )
            try PropertyFailure.check(
                row.emailKey == row.email.lowercased(),
                "email-key",
                "key \(row.emailKey.debugDescription) is not the lowercased email \(row.email.debugDescription)"
            )
            try PropertyFailure.check(
                keys.insert(row.emailKey).inserted,
                "unique",
                "two rows for \(row.emailKey.debugDescription)"
            )
            try PropertyFailure.check(row.line >= 2, "line", "a row on line \(row.line)")
            let fields: [(String, String?)] = [
                ("firstName", row.firstName), ("lastName", row.lastName), ("company", row.company),
                ("ticket", row.ticket), ("status", row.status), ("salesforceID", row.salesforceID),
            ]
            for (field, value) in fields {
                guard let value else { continue }
                try Self.checkClean(value, field: field)
            }
            if let id = row.salesforceID {
                try PropertyFailure.check(
                    (id.utf8.count == 15 || id.utf8.count == 18)
                        && id.utf8.allSatisfy {
                            $0 < 0x80
                                && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber)
                        },
                    "salesforce-id",
                    "kept \(id.debugDescription) as a Salesforce ID"
                )
            }
            try PropertyFailure.check(
                row.ticket != "" && row.status != "" && row.salesforceID != "",
                "optional",
                "an empty optional field is \"\" rather than nil"
            )
        }
        for merge in list.merged {
            try PropertyFailure.check(
                merge.intoLine < merge.line && keys.contains(merge.emailKey),
                "merge",
                "line \(merge.line) merged into line \(merge.intoLine) for \(merge.emailKey.debugDescription)"
            )
        }
    }

    /// What `AttendeeListText.clean` promises for a display field, and the 1,000-character import limit.
    private static func checkClean(_ value: String, field: String) throws(PropertyFailure) {
        try PropertyFailure.check(
            value.count <= maxFieldCharacters,
            "field-length",
            "\(field) has \(value.count) characters (limit \(maxFieldCharacters))"
        )
        let scalars = Array(value.unicodeScalars)
        if let first = scalars.first, let last = scalars.last {
            try PropertyFailure.check(
                !first.properties.isWhitespace && !last.properties.isWhitespace,
                "trimmed",
                "\(field) \(value.debugDescription) starts or ends with whitespace"
            )
        }
        var previousWasSpace = false
        for scalar in scalars {
            let isSpace = scalar.properties.isWhitespace
            try PropertyFailure.check(
                !(isSpace && previousWasSpace),
                "spaces",
                "\(field) \(value.debugDescription) has a run of spaces"
            )
            try PropertyFailure.check(
                scalar.properties.generalCategory != .control && !(0x202A...0x202E).contains(scalar.value)
                    && !(0x2066...0x2069).contains(scalar.value),
                "control",
                "\(field) \(value.debugDescription) keeps U+\(String(scalar.value, radix: 16, uppercase: true))"
            )
            previousWasSpace = isSpace
        }
    }

    /// The documented rule: one `@` with text on both sides, no whitespace or controls, at most 254 bytes.
    private static func isPlausibleEmail(_ email: String) -> Bool {
        let bytes = Array(email.utf8)
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), bytes.lastIndex(of: UInt8(ascii: "@")) == at,
            at > 0, at < bytes.count - 1, bytes.count <= maxEmailBytes
        else { return false }
        return !email.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }
    }
}
