import Foundation

/// The result of importing an attendee list: one normalized row per person, plus what was folded or left out,
/// so the organizer can see exactly how the file was read before the event.
public struct RosterImport: Sendable, Equatable {
    /// A later row folded into an earlier one with the same email key.
    public struct Merge: Sendable, Equatable {
        /// Line of the duplicate row.
        public let line: Int
        /// Line of the row it was folded into.
        public let intoLine: Int
        public let emailKey: String

        public init(line: Int, intoLine: Int, emailKey: String) {
            self.line = line
            self.intoLine = intoLine
            self.emailKey = emailKey
        }
    }

    /// A row that was not imported, with a reason a person can read.
    public struct Skip: Sendable, Equatable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public let format: RosterFormat
    /// Unique by emailKey, in file order of first appearance.
    public let rows: [RosterRow]
    /// Duplicate rows folded into an earlier one (same emailKey): empty fields are filled from the later row;
    /// admitted if any row admitted.
    public let merged: [Merge]
    /// Rows with an empty email (reason says so). Not-admitted rows are NOT skipped: they are kept with
    /// admitted=false so the kiosk can tell the person to see staff.
    public let skipped: [Skip]

    public init(format: RosterFormat, rows: [RosterRow], merged: [Merge], skipped: [Skip]) {
        self.format = format
        self.rows = rows
        self.merged = merged
        self.skipped = skipped
    }

    /// Parses and validates the whole file; throws and imports nothing on any malformed input.
    ///
    /// Rejecting the whole file (rather than importing what looks fine) keeps the roster from silently missing
    /// people: the organizer fixes the line named in the error and imports again.
    public static func parse(_ data: Data) throws(RosterImportError) -> RosterImport {
        let table: CSVTable
        do {
            table = try CSVReader.parse(data)
        } catch {
            throw RosterImportError(line: error.line, reason: .csv(error.reason))
        }
        guard let format = RosterFormat.detect(header: table.header),
              let columns = RosterColumns(format: format, header: table.header)
        else {
            let hasEmail = table.header.map(RosterColumns.normalize)
                .contains { RosterColumns.emailAliases.contains($0) }
            throw RosterImportError(
                line: table.headerLine,
                reason: hasEmail ? .unknownFormat(header: table.header) : .noEmailColumn
            )
        }

        var rows: [RosterRow] = []
        var rowIndexByKey: [String: Int] = [:]
        var merged: [Merge] = []
        var skipped: [Skip] = []
        rows.reserveCapacity(table.records.count)
        rowIndexByKey.reserveCapacity(table.records.count)
        for record in table.records {
            guard let row = try makeRow(record, columns: columns, header: table.header, format: format) else {
                let blank = record.fields.allSatisfy { RosterText.trim($0).isEmpty }
                let reason = blank ? "blank row" : "no email address; add one to import this person"
                skipped.append(Skip(line: record.line, reason: reason))
                continue
            }
            if let index = rowIndexByKey[row.emailKey] {
                merged.append(Merge(line: row.line, intoLine: rows[index].line, emailKey: row.emailKey))
                rows[index].absorb(row)
            } else {
                rowIndexByKey[row.emailKey] = rows.count
                rows.append(row)
            }
        }
        return RosterImport(format: format, rows: rows, merged: merged, skipped: skipped)
    }

    /// Nil when the email cell is empty.
    private static func makeRow(
        _ record: CSVRecord, columns: RosterColumns, header: [String], format: RosterFormat
    ) throws(RosterImportError) -> RosterRow? {
        for index in columns.used {
            let value = record.fields[index]
            let limit = RosterText.maximumFieldLength
            if value.utf8.count > limit && RosterText.trim(value).count > limit {
                throw RosterImportError(line: record.line, reason: .tooLong(field: RosterText.trim(header[index])))
            }
        }
        func text(_ index: Int?) -> String {
            guard let index else { return "" }
            return RosterText.clean(record.fields[index])
        }
        func optionalText(_ index: Int?) -> String? {
            let value = text(index)
            return value.isEmpty ? nil : value
        }

        let email = RosterText.trim(record.fields[columns.email])
        guard !email.isEmpty else { return nil }
        guard RosterText.isPlausibleEmail(email) else {
            throw RosterImportError(line: record.line, reason: .invalidEmail(email))
        }

        var firstName = text(columns.firstName)
        var lastName = text(columns.lastName)
        if firstName.isEmpty && lastName.isEmpty {
            (firstName, lastName) = RosterText.splitName(text(columns.fullName))
        }
        let status = optionalText(columns.status)
        return RosterRow(
            line: record.line,
            email: email,
            firstName: firstName,
            lastName: lastName,
            company: text(columns.company),
            ticket: optionalText(columns.ticket) ?? optionalText(columns.fallbackTicket),
            salesforceID: optionalText(columns.salesforceID).flatMap(validSalesforceID),
            status: status,
            admitted: RosterRow.isAdmitted(status: status, format: format)
        )
    }

    /// Keeps only values shaped like a Salesforce record ID (15 or 18 ASCII letters and digits), so a spreadsheet's
    /// own numeric `Id` column is never exported back to Salesforce as if it were one.
    private static func validSalesforceID(_ value: String) -> String? {
        guard value.utf8.count == 15 || value.utf8.count == 18 else { return nil }
        let isAlphanumeric = value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
        return isAlphanumeric ? value : nil
    }
}
