import Foundation

/// The result of importing an attendee list: one normalized row per person, plus what was folded or left out,
/// so the organizer can see exactly how the file was read before the event.
public struct AttendeeListImport: Sendable, Equatable {
    /// A later row folded into an earlier one with the same email key.
    public struct Merge: Sendable, Equatable {
        /// Line of the duplicate row.
        public let line: Int
        /// Line of the row it was folded into.
        public let intoLine: Int
        public let emailKey: String
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

    public let format: AttendeeListFormat
    /// Unique by emailKey, in file order of first appearance.
    public let rows: [AttendeeListRow]
    /// Duplicate rows folded into an earlier one (same emailKey): empty fields are filled from the later row;
    /// admitted if any row admitted.
    public let merged: [Merge]
    /// Rows with an empty email (reason says so). Not-admitted rows are NOT skipped: they are kept with
    /// admitted=false so the kiosk can tell the person to see staff.
    public let skipped: [Skip]

    public init(format: AttendeeListFormat, rows: [AttendeeListRow], merged: [Merge], skipped: [Skip]) {
        self.format = format
        self.rows = rows
        self.merged = merged
        self.skipped = skipped
    }

    /// Parses and validates the whole file; throws and imports nothing on any malformed input.
    ///
    /// Rejecting the whole file (rather than importing what looks fine) keeps the attendee list from silently missing
    /// people: the organizer fixes the line named in the error and imports again.
    ///
    /// Two passes over the bytes keep memory at the file plus the rows: the first checks every record's structure
    /// and counts them without making a string, stopping at the first row over `limits.maximumRows`; only a
    /// well-formed file of acceptable length is then read record by record into rows. CSV errors therefore come
    /// before any error about a row's content, as they would if the whole table were parsed first.
    /// `limits.maximumFileBytes` applies to ``read(contentsOfFile:limits:)``, which loads `data`.
    public static func parse(
        _ data: Data,
        limits: AttendeeListLimits = .standard
    ) throws(AttendeeListError) -> AttendeeListImport {
        // `Data.withUnsafeBytes` only rethrows untyped errors, so the typed error comes out as a `Result`.
        let result: Result<AttendeeListImport, AttendeeListError> = data.withUnsafeBytes { raw in
            var parser = CSVParser(bytes: raw.bindMemory(to: UInt8.self), limits: limits.csv)
            do throws(AttendeeListError) {
                return .success(try parse(&parser, maximumRows: limits.maximumRows))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func parse(
        _ parser: inout CSVParser,
        maximumRows: Int
    ) throws(AttendeeListError) -> AttendeeListImport {
        let (header, headerLine) = try csv { () throws(CSVError) in try parser.parseHeader() }
        // First pass, on a copy positioned after the header: structure and row count, nothing built.
        var validator = parser
        var recordCount = 0
        while let line = try csv({ () throws(CSVError) in try validator.skipRecord() }) {
            recordCount += 1
            guard recordCount <= maximumRows else {
                throw AttendeeListError(line: line, reason: .tooManyRows(limit: maximumRows))
            }
        }
        guard let format = AttendeeListFormat.detect(header: header),
            let columns = AttendeeListColumns(format: format, header: header)
        else {
            let hasEmail = header.map(AttendeeListColumns.normalize)
                .contains { AttendeeListColumns.emailAliases.contains($0) }
            throw AttendeeListError(
                line: headerLine,
                reason: hasEmail ? .unknownFormat(header: header) : .noEmailColumn
            )
        }

        var rows: [AttendeeListRow] = []
        var skipped: [Skip] = []
        rows.reserveCapacity(recordCount)
        while let record = try csv({ () throws(CSVError) in try parser.nextRecord() }) {
            guard let row = try makeRow(record, columns: columns, header: header, format: format) else {
                let blank = record.fields.allSatisfy { AttendeeListText.trim($0).isEmpty }
                let reason = blank ? "blank row" : "no email address; add one to import this person"
                skipped.append(Skip(line: record.line, reason: reason))
                continue
            }
            rows.append(row)
        }
        return folding(rows, format: format, skipped: skipped)
    }

    /// Rows of one list, in their order, each person once: a later row with an email key seen before is
    /// folded into the first (``AttendeeListRow/absorb(_:)``) and reported as merged. A file's lines and
    /// pretix's position ids alike are the rows' `line`.
    public static func folding(
        _ rows: [AttendeeListRow],
        format: AttendeeListFormat,
        skipped: [Skip] = []
    ) -> AttendeeListImport {
        var kept: [AttendeeListRow] = []
        var rowIndexByKey: [String: Int] = [:]
        var merged: [Merge] = []
        kept.reserveCapacity(rows.count)
        rowIndexByKey.reserveCapacity(rows.count)
        for row in rows {
            if let index = rowIndexByKey[row.emailKey] {
                merged.append(Merge(line: row.line, intoLine: kept[index].line, emailKey: row.emailKey))
                kept[index].absorb(row)
            } else {
                rowIndexByKey[row.emailKey] = kept.count
                kept.append(row)
            }
        }
        return AttendeeListImport(format: format, rows: kept, merged: merged, skipped: skipped)
    }

    /// Runs one parser step, reporting its `CSVError` as an attendee-list error on the same line.
    private static func csv<T>(_ step: () throws(CSVError) -> T) throws(AttendeeListError) -> T {
        do {
            return try step()
        } catch {
            throw AttendeeListError(line: error.line, reason: .csv(error.reason))
        }
    }

    /// Nil when the email cell is empty.
    private static func makeRow(
        _ record: CSVRecord,
        columns: AttendeeListColumns,
        header: [String],
        format: AttendeeListFormat
    ) throws(AttendeeListError) -> AttendeeListRow? {
        for index in columns.used {
            let value = record.fields[index]
            let limit = AttendeeListText.maximumFieldBytes
            guard value.utf8.count > limit else { continue }
            let bytes = AttendeeListText.trim(value).utf8.count
            if bytes > limit {
                throw AttendeeListError(
                    line: record.line,
                    reason: .tooLong(field: AttendeeListText.trim(header[index]), bytes: bytes)
                )
            }
        }
        func text(_ index: Int?) -> String {
            guard let index else { return "" }
            return AttendeeListText.clean(record.fields[index])
        }
        func optionalText(_ index: Int?) -> String? {
            let value = text(index)
            return value.isEmpty ? nil : value
        }

        let email = AttendeeListText.trim(record.fields[columns.email])
        guard !email.isEmpty else { return nil }
        guard AttendeeListText.isPlausibleEmail(email) else {
            throw AttendeeListError(line: record.line, reason: .invalidEmail(email))
        }

        var firstName = text(columns.firstName)
        var lastName = text(columns.lastName)
        if firstName.isEmpty && lastName.isEmpty {
            (firstName, lastName) = AttendeeListText.splitName(text(columns.fullName))
        }
        let status = optionalText(columns.status)
        return AttendeeListRow(
            line: record.line,
            email: email,
            firstName: firstName,
            lastName: lastName,
            company: text(columns.company),
            ticket: optionalText(columns.ticket) ?? optionalText(columns.fallbackTicket),
            salesforceID: optionalText(columns.salesforceID).flatMap(validSalesforceID),
            status: status,
            admitted: AttendeeListRow.isAdmitted(status: status, format: format),
            details: try columns.details.read(record, header: header, text: text)
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
