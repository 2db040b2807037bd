import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterAttendeeList

private func importAttendeeList(_ text: String) throws(AttendeeListError) -> AttendeeListImport {
    try AttendeeListImport.parse(Data(text.utf8))
}

private func importError(_ bytes: Data) -> AttendeeListError? {
    thrownError { () throws(AttendeeListError) in try AttendeeListImport.parse(bytes) }
}

private func importError(_ text: String) -> AttendeeListError? {
    importError(Data(text.utf8))
}

private func importError(_ text: String, limits: AttendeeListLimits) -> AttendeeListError? {
    do {
        _ = try AttendeeListImport.parse(Data(text.utf8), limits: limits)
        return nil
    } catch {
        return error
    }
}

private func readError(_ path: String, _ limits: AttendeeListLimits) -> AttendeeListError? {
    do {
        _ = try AttendeeListImport.read(contentsOfFile: path, limits: limits)
        return nil
    } catch {
        return error
    }
}

@Suite("AttendeeListImport")
struct AttendeeListImportTests {
    // MARK: - Formats

    @Test func salesforceCampaignMemberReport() throws {
        let text = """
            "Campaign Member ID","Campaign Name","First Name","Last Name","Title","Company / Account","Email",\
            "Member Status","Responded","Lead Source"
            "00v5e00000AbCdEAAZ","DevCon 2025","Ada","Lovelace","CTO","Analytical Engines, Ltd","Ada@Analytical.example",\
            "Registered","1","Web"
            "00v5e00000AbCdFAAZ","DevCon 2025","Grace","Hopper","Rear Admiral","US Navy","grace@navy.example",\
            "Attended","1","Partner"
            "00v5e00000AbCdGAAZ","DevCon 2025","Alan","Turing","","Bletchley Park","alan@bletchley.example",\
            "Cancelled","0","Web"

            """
        let result = try importAttendeeList(text)
        #expect(result.format == .salesforce)
        #expect(result.merged.isEmpty && result.skipped.isEmpty)
        #expect(
            result.rows == [
                AttendeeListRow(
                    line: 2,
                    email: "Ada@Analytical.example",
                    emailKey: "ada@analytical.example",
                    firstName: "Ada",
                    lastName: "Lovelace",
                    company: "Analytical Engines, Ltd",
                    ticket: nil,
                    salesforceID: "00v5e00000AbCdEAAZ",
                    status: "Registered",
                    admitted: true
                ),
                AttendeeListRow(
                    line: 3,
                    email: "grace@navy.example",
                    firstName: "Grace",
                    lastName: "Hopper",
                    company: "US Navy",
                    salesforceID: "00v5e00000AbCdFAAZ",
                    status: "Attended"
                ),
                AttendeeListRow(
                    line: 4,
                    email: "alan@bletchley.example",
                    firstName: "Alan",
                    lastName: "Turing",
                    company: "Bletchley Park",
                    salesforceID: "00v5e00000AbCdGAAZ",
                    status: "Cancelled",
                    admitted: false
                ),
            ]
        )
    }

    @Test func salesforceDataLoaderStyleWithPlainId() throws {
        let text = """
            Id,FirstName,LastName,CompanyOrAccount,Email,Status
            00v5e00000AbCdE,Ada,Lovelace,Analytical,ada@a.example,Sent
            not-an-sf-id,Bob,Builder,Build Co,bob@b.example,Responded
            """
        let result = try importAttendeeList(text)
        #expect(result.format == .salesforce)
        #expect(result.rows.map(\.salesforceID) == ["00v5e00000AbCdE", nil])
        #expect(result.rows.map(\.company) == ["Analytical", "Build Co"])
        #expect(result.rows.map(\.firstName) == ["Ada", "Bob"])
    }

    @Test func eventbriteAttendeeReportWithQuestionsAndARefund() throws {
        let header =
            "Order #,Order Date,First Name,Last Name,Email,Quantity,Ticket Type,Attendee #,Group,Order Type,"
            + "Total Paid,Attendee Status,Company,Job Title,Barcode #,"
            + "Dietary requirements,\"How did you hear about us? (Select all that apply)\""
        let text =
            header + "\r\n"
            + "1234567890,2025-03-01 10:15:00-08:00,Katherine,Johnson,katherine@nasa.example,1,General Admission,"
            + "2345678901,,Eventbrite Completed,99.00,Attending,NASA Langley,Mathematician,234567890112345678001,"
            + "Vegetarian,\"Twitter, Newsletter\"\r\n"
            + "1234567891,2025-03-02 11:00:00-08:00,Dorothy,Vaughan,dorothy@nasa.example,1,General Admission,"
            + "2345678902,,Eventbrite Completed,99.00,Refunded,NASA Langley,Supervisor,234567890212345678001,"
            + ",Friend\r\n"
            + "1234567892,2025-03-03 12:30:00-08:00,Mary,Jackson,mary@nasa.example,1,Speaker,"
            + "2345678903,,Free Order,0.00,Checked In,\"NASA, Langley\",Engineer,,"
            + "\"None, thanks\",\"Other: \"\"a colleague\"\"\"\r\n"
        let result = try importAttendeeList(text)
        #expect(result.format == .eventbrite)
        #expect(result.rows.count == 3)
        #expect(
            result.rows[0]
                == AttendeeListRow(
                    line: 2,
                    email: "katherine@nasa.example",
                    firstName: "Katherine",
                    lastName: "Johnson",
                    company: "NASA Langley",
                    ticket: "234567890112345678001",
                    status: "Attending",
                    admitted: true,
                    details: AttendeeDetails(ticketType: "General Admission", order: "1234567890")
                )
        )
        #expect(result.rows[1].status == "Refunded")
        #expect(result.rows[1].admitted == false)
        #expect(result.rows[1].ticket == "234567890212345678001")
        // No barcode: falls back to the attendee number.
        #expect(result.rows[2].ticket == "2345678903")
        #expect(result.rows[2].company == "NASA, Langley")
        #expect(result.rows[2].admitted)
        #expect(result.rows.allSatisfy { $0.salesforceID == nil })
    }

    @Test(arguments: ["Refunded", "Cancelled", "canceled", "Not Attending", "Deleted", "VOID", " not_attending "])
    func eventbriteStatusesThatDoNotAdmit(status: String) throws {
        let text = "Order #,Attendee #,First Name,Last Name,Email,Attendee Status\n1,2,A,B,a@b.example,\(status)\n"
        let row = try #require(try importAttendeeList(text).rows.first)
        #expect(row.admitted == false)
        #expect(row.status == status.trimmingCharacters(in: .whitespaces))
    }

    @Test func pretixCheckInListWithNamePartsAndACanceledOrder() throws {
        let text = """
            Order code,Attendee name,Attendee name: Given name,Attendee name: Family name,Product,Price,Checked in,\
            Checked out,Automatically checked in,Paid,Secret,E-mail,Company,Voucher code,Order date,\
            Requires special attention,Comment,Seat ID,Seat name,Seat zone,Seat row,Seat number,Order status
            ABC12,Ana María López,Ana María,López,Conference ticket,250.00,,,No,Yes,h4k5t8rjq2zyw9pdx6nm3cvbg7sfe1ua,\
            ana.lopez@ejemplo.example,Café Técnico S.L.,,2025-02-11,No,,,,,,,p
            DEF34,Jean-Luc Picard,Jean-Luc,Picard,Conference ticket,250.00,,,No,No,9xq3lm2n8vz7kw4pt6bd5ry1hcgsj0ef,\
            jl.picard@starfleet.example,Starfleet,,2025-02-12,No,,,,,,,n
            GHI56,Nyota Uhura,Nyota,Uhura,Workshop add-on,80.00,,,No,Yes,q7w8e9r0t1y2u3i4o5p6a7s8d9f0g1hh,\
            uhura@starfleet.example,Starfleet,,2025-02-13,No,,,,,,,c
            """
        let result = try importAttendeeList(text)
        #expect(result.format == .pretix)
        #expect(
            result.rows == [
                AttendeeListRow(
                    line: 2,
                    email: "ana.lopez@ejemplo.example",
                    firstName: "Ana María",
                    lastName: "López",
                    company: "Café Técnico S.L.",
                    ticket: "h4k5t8rjq2zyw9pdx6nm3cvbg7sfe1ua",
                    status: "p",
                    admitted: true,
                    details: AttendeeDetails(ticketType: "Conference ticket", order: "ABC12")
                ),
                AttendeeListRow(
                    line: 3,
                    email: "jl.picard@starfleet.example",
                    firstName: "Jean-Luc",
                    lastName: "Picard",
                    company: "Starfleet",
                    ticket: "9xq3lm2n8vz7kw4pt6bd5ry1hcgsj0ef",
                    status: "n",
                    admitted: true,
                    details: AttendeeDetails(ticketType: "Conference ticket", order: "DEF34")
                ),
                AttendeeListRow(
                    line: 4,
                    email: "uhura@starfleet.example",
                    firstName: "Nyota",
                    lastName: "Uhura",
                    company: "Starfleet",
                    ticket: "q7w8e9r0t1y2u3i4o5p6a7s8d9f0g1hh",
                    status: "c",
                    admitted: false,
                    details: AttendeeDetails(ticketType: "Workshop add-on", order: "GHI56")
                ),
            ]
        )
    }

    @Test func pretixWithoutNamePartsSplitsOnTheLastSpace() throws {
        let text = """
            Order code,Attendee name,Product,Secret,Email,Company,Status
            AAA11,Ludwig van Beethoven,Ticket,s3cr3t1,ludwig@bonn.example,,expired
            BBB22,Cher,Ticket,s3cr3t2,cher@music.example,Cher Inc,paid
            CCC33,,Ticket,s3cr3t3,nobody@x.example,,e
            """
        let result = try importAttendeeList(text)
        #expect(result.format == .pretix)
        #expect(result.rows.map(\.firstName) == ["Ludwig van", "Cher", ""])
        #expect(result.rows.map(\.lastName) == ["Beethoven", "", ""])
        #expect(result.rows.map(\.admitted) == [false, true, false])
        #expect(result.rows.map(\.ticket) == ["s3cr3t1", "s3cr3t2", "s3cr3t3"])
    }

    @Test func pretixSingleLetterCodesOnlyApplyToPretix() throws {
        let text = "email,first_name,status\na@x.example,A,c\n"
        #expect(try importAttendeeList(text).rows[0].admitted)
    }

    @Test func genericList() throws {
        let text = """
            email,first_name,last_name,company,ticket
            zoe@x.example,Zoë,Ørsted-Lévy,"Acme, Inc.",T-001
            bob@y.example,Bob,Builder,,
            """
        let result = try importAttendeeList(text)
        #expect(result.format == .generic)
        #expect(
            result.rows == [
                AttendeeListRow(
                    line: 2,
                    email: "zoe@x.example",
                    firstName: "Zoë",
                    lastName: "Ørsted-Lévy",
                    company: "Acme, Inc.",
                    ticket: "T-001"
                ),
                AttendeeListRow(line: 3, email: "bob@y.example", firstName: "Bob", lastName: "Builder"),
            ]
        )
    }

    @Test func genericWithSingleNameColumnAndHeaderVariants() throws {
        let text = " E-Mail , Name ,Company\nann@x.example,Ann Marie Lee,\nsolo@x.example,Prince,\n"
        let result = try importAttendeeList(text)
        #expect(result.format == .generic)
        #expect(result.rows.map(\.firstName) == ["Ann Marie", "Prince"])
        #expect(result.rows.map(\.lastName) == ["Lee", ""])
    }

    @Test func emailOnlyListIsGeneric() throws {
        let result = try importAttendeeList("Email\nann@x.example\nbob@x.example\n")
        #expect(result.format == .generic)
        #expect(result.rows.map(\.email) == ["ann@x.example", "bob@x.example"])
    }

    @Test func detectMatchesHeadersCaseInsensitivelyIgnoringSpaces() {
        #expect(AttendeeListFormat.detect(header: ["  ORDER CODE ", "secret", "E-MAIL"]) == .pretix)
        #expect(AttendeeListFormat.detect(header: ["order #", "barcode #", "email"]) == .eventbrite)
        #expect(AttendeeListFormat.detect(header: ["EMAIL", "campaign member id"]) == .salesforce)
        #expect(AttendeeListFormat.detect(header: ["Email", "Member ID"]) == .salesforce)
        #expect(AttendeeListFormat.detect(header: ["EMAIL", "FIRSTNAME"]) == .generic)
        #expect(AttendeeListFormat.detect(header: ["Email", "Ticket"]) == .generic)
        #expect(AttendeeListFormat.detect(header: ["Email", "Full Name"]) == .generic)
        #expect(AttendeeListFormat.detect(header: ["Name", "Company"]) == nil)
        #expect(AttendeeListFormat.detect(header: ["Order code", "Secret"]) == nil)
        #expect(AttendeeListFormat.detect(header: ["Email", "Favourite colour"]) == nil)
        #expect(AttendeeListFormat.detect(header: []) == nil)
    }

    @Test func sampleAttendeesFileImports() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/sample-attendees.csv")
        let result = try AttendeeListImport.parse(try Data(contentsOf: url))
        #expect(result.format == .generic)
        #expect(result.rows.count == 25)
        #expect(result.merged.isEmpty && result.skipped.isEmpty)
        #expect(result.rows.allSatisfy { $0.admitted && $0.ticket != nil && !$0.company.isEmpty })
        #expect(result.rows.contains { $0.firstName == "José" && $0.lastName == "Álvarez Núñez" })
        #expect(result.rows.contains { $0.company == "Routing, Bridging & Co." })
    }

    // MARK: - Encoding and line ends

    @Test func byteOrderMarkAndCRLF() throws {
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(Data("email,first_name,last_name\r\nfrançois@x.example,François,Dupont\r\n".utf8))
        let result = try AttendeeListImport.parse(bytes)
        #expect(result.format == .generic)
        #expect(
            result.rows == [
                AttendeeListRow(line: 2, email: "françois@x.example", firstName: "François", lastName: "Dupont")
            ]
        )
    }

    @Test func semicolonSeparatedExcelExport() throws {
        let text = "E-Mail;Vorname;First Name;Last Name;Company\r\nj@x.example;;Jörg;Groß;\"A; B\"\r\n"
        let result = try importAttendeeList(text)
        #expect(
            result.rows == [
                AttendeeListRow(line: 2, email: "j@x.example", firstName: "Jörg", lastName: "Groß", company: "A; B")
            ]
        )
    }

    @Test func quotedFieldsWithEmbeddedNewlinesKeepLineNumbersRight() throws {
        let text = #"""
            email,first_name,last_name,company
            a@x.example,"Ann ""Annie""",Lee,"Multi
            Line, Corp"
            b@x.example,Bob,Smith,Plain
            c@x.example,Cy,,
            """#
        let result = try importAttendeeList(text)
        #expect(result.rows.map(\.line) == [2, 4, 5])
        #expect(result.rows[0].firstName == "Ann \"Annie\"")
        #expect(result.rows[0].company == "Multi Line, Corp")
    }

    // MARK: - Normalization

    @Test func trimsFieldsAndStripsControlCharacters() throws {
        let text =
            "email,first_name,last_name,company,ticket\n"
            + "  ann@x.example\t, \u{00A0}Ann\u{0000}\u{0007} ,\"Lee\r\nSmith\",\"Evil\u{202E}Corp\u{200B}\",  T1  \n"
        let row = try #require(try importAttendeeList(text).rows.first)
        #expect(row.email == "ann@x.example")
        #expect(row.firstName == "Ann")
        #expect(row.lastName == "Lee Smith")
        #expect(row.company == "EvilCorp")
        #expect(row.ticket == "T1")
    }

    /// An imported address carries the key a kiosk computes for the same address typed at the door, whatever
    /// stray marks either has at its ends (one rule: `EmailAddress.key`).
    @Test func importedKeyIsTheKioskKey() throws {
        let text = "email,first_name\n\u{FEFF}Ada@X.Example\u{200B},Ada\n"
        let result = try importAttendeeList(text)
        #expect(result.rows.map(\.emailKey) == ["ada@x.example"])
        for typed in ["ada@x.example", " ADA@x.example\u{200B}", "\u{FEFF}Ada@X.EXAMPLE\t"] {
            #expect(EmailAddress.key(typed) == result.rows[0].emailKey)
        }
    }

    @Test func emailKeyIsTrimmedAndUnicodeLowercased() throws {
        #expect(AttendeeListRow(line: 1, email: "  ÉLODIE.Durand@Exemple.FR ").emailKey == "élodie.durand@exemple.fr")
        #expect(AttendeeListRow(line: 1, email: "ÅSA@X.EXAMPLE").emailKey == "åsa@x.example")
        let text = "email,first_name\nΣΟΦΙΑ@X.EXAMPLE,Sofia\nσοφια@x.example,Sofia\n"
        let result = try importAttendeeList(text)
        #expect(result.rows.map(\.email) == ["ΣΟΦΙΑ@X.EXAMPLE"])
        #expect(result.rows.map(\.emailKey) == ["σοφια@x.example"])
        #expect(result.merged == [AttendeeListImport.Merge(line: 3, intoLine: 2, emailKey: "σοφια@x.example")])
    }

    // MARK: - Duplicates and skips

    @Test func duplicatesAreMergedAndReported() throws {
        let text = """
            email,first_name,last_name,company,ticket
            Ann.Lee@Example.com,Ann,,,
            bob@example.com,Bob,Smith,Bobco,B1
            ann.lee@example.COM ,Annie,Lee,Acme,A2
            ANN.LEE@EXAMPLE.COM,,,Other,A3
            """
        let result = try importAttendeeList(text)
        #expect(result.rows.count == 2)
        #expect(
            result.rows[0]
                == AttendeeListRow(
                    line: 2,
                    email: "Ann.Lee@Example.com",
                    emailKey: "ann.lee@example.com",
                    firstName: "Ann",
                    lastName: "Lee",
                    company: "Acme",
                    ticket: "A2"
                )
        )
        #expect(
            result.merged == [
                AttendeeListImport.Merge(line: 4, intoLine: 2, emailKey: "ann.lee@example.com"),
                AttendeeListImport.Merge(line: 5, intoLine: 2, emailKey: "ann.lee@example.com"),
            ]
        )
    }

    @Test func mergedPersonIsAdmittedIfAnyRowIs() throws {
        let text = """
            Order #,Attendee #,Barcode #,First Name,Last Name,Email,Attendee Status
            100,1001,B-1001,Sam,Lee,sam@x.example,Refunded
            101,1002,B-1002,Sam,Lee,Sam@X.example,Attending
            102,1003,B-1003,Kim,Ro,kim@x.example,Attending
            103,1004,B-1004,Kim,Ro,kim@x.example,Cancelled
            """
        let result = try importAttendeeList(text)
        #expect(result.rows.count == 2)
        // The refunded ticket is superseded by the valid one.
        #expect(result.rows[0].admitted)
        #expect(result.rows[0].ticket == "B-1002")
        #expect(result.rows[0].status == "Attending")
        #expect(result.rows[0].line == 2)
        // A later cancellation does not undo an earlier valid ticket.
        #expect(result.rows[1].admitted)
        #expect(result.rows[1].ticket == "B-1003")
        #expect(result.merged.map(\.line) == [3, 5])
        #expect(result.merged.map(\.intoLine) == [2, 4])
    }

    @Test func notAdmittedDuplicatesStayNotAdmitted() throws {
        let text = "email,first_name,status\nx@x.example,X,refunded\nX@x.example,,cancelled\n"
        let result = try importAttendeeList(text)
        #expect(result.rows.count == 1)
        #expect(result.rows[0].admitted == false)
        #expect(result.rows[0].status == "refunded")
    }

    @Test func rowsWithoutEmailAreSkippedWithTheirLine() throws {
        let text = """
            email,first_name,last_name
            a@x.example,Ann,Lee
            ,Walk-in,Guest
              ,,
            b@x.example,Bob,Smith
            """
        let result = try importAttendeeList(text)
        #expect(result.rows.map(\.email) == ["a@x.example", "b@x.example"])
        #expect(result.skipped.map(\.line) == [3, 4])
        #expect(result.skipped[0].reason.contains("no email"))
        #expect(result.skipped[1].reason.contains("blank"))
    }

    // MARK: - Rejections

    @Test func noEmailColumn() throws {
        let error = try #require(importError("first_name,last_name,company\nAnn,Lee,Acme\n"))
        #expect(error == AttendeeListError(line: 1, reason: .noEmailColumn))
        #expect(error.description.hasPrefix("line 1: no email column found; expected one of Email, E-mail"))
    }

    @Test func noEmailColumnPointsAtTheHeaderAfterLeadingBlankLines() {
        #expect(importError("\n\nName,Company\nAnn,Acme\n") == AttendeeListError(line: 3, reason: .noEmailColumn))
    }

    @Test func unknownFormat() throws {
        let error = try #require(importError("Email,Favourite colour\na@x.example,blue\n"))
        #expect(error == AttendeeListError(line: 1, reason: .unknownFormat(header: ["Email", "Favourite colour"])))
        #expect(error.description.hasPrefix("line 1: "))
        #expect(error.description.contains("email, first_name, last_name"))
    }

    @Test(arguments: [
        "ann.example.com", "ann@@x.example", "ann@x@example", "@x.example", "ann@", "ann lee@x.example",
        "ann@x.example\u{0007}z",
    ])
    func invalidEmailRejectsTheFile(email: String) throws {
        let text = "email,first_name\nok@x.example,Ok\nfine@x.example,Fine\n\"\(email)\",Bad\nlater@x.example,Later\n"
        let error = try #require(importError(text))
        #expect(error == AttendeeListError(line: 4, reason: .invalidEmail(email)))
        #expect(error.description.hasPrefix("line 4: "))
        #expect(error.description.contains("not a valid email address"))
    }

    @Test func overlongEmailIsInvalid() throws {
        let email = String(repeating: "a", count: 250) + "@x.io"
        #expect(importError("email\n\(email)\n") == AttendeeListError(line: 2, reason: .invalidEmail(email)))
        let longest = String(repeating: "a", count: 249) + "@x.io"
        #expect(try importAttendeeList("email\n\(longest)\n").rows.count == 1)
    }

    @Test func overlongFieldRejectsTheFile() throws {
        let long = String(repeating: "é", count: 501)
        let text = "email,First Name,notes\na@x.example,Ann,\nb@x.example,\(long),\n"
        let error = try #require(importError(text))
        #expect(error == AttendeeListError(line: 3, reason: .tooLong(field: "First Name", bytes: 1_002)))
        #expect(error.description.contains("1,002 bytes of UTF-8; the limit is 1,000 bytes"))
        // Exactly 1,000 bytes (500 two-byte letters) is fine.
        let limit = String(repeating: "é", count: 500)
        #expect(try importAttendeeList("email,first_name\na@x.example,\(limit)\n").rows[0].firstName == limit)
    }

    @Test("1,000 flags in a name on line 550 of 600: the whole file is refused, naming line 550")
    func thousandFlagNameIsRefusedWithItsLine() throws {
        #expect(HostileAttendeeFile.thousandFlags.count == 1_000, "short in characters")
        let error = try #require(importError(HostileAttendeeFile.flagNames(rows: 600, line: 550)))
        #expect(error == AttendeeListError(line: 550, reason: .tooLong(field: "first_name", bytes: 8_000)))
        #expect(error.description.hasPrefix("line 550: "))
    }

    @Test("an 8,000-byte field of 1,000 characters on line 321: the whole file is refused, naming line 321")
    func eightThousandByteFieldIsRefusedWithItsLine() throws {
        #expect(HostileAttendeeFile.eightThousandBytes.count == 1_000, "short in characters")
        let error = try #require(importError(HostileAttendeeFile.longField(rows: 600, line: 321)))
        #expect(error == AttendeeListError(line: 321, reason: .tooLong(field: "company", bytes: 8_000)))
        #expect(error.description.hasPrefix("line 321: "))
        #expect(try importAttendeeList(HostileAttendeeFile.honest(rows: 600)).rows.count == 600)
    }

    @Test func malformedCSVIsRejectedWithItsLine() {
        #expect(
            importError("email,first_name\na@x.example,Ann\nb@x.example,\"Bob\nc@x.example,Cy\n")
                == AttendeeListError(line: 3, reason: .csv(.unterminatedQuote))
        )
        #expect(
            importError("email,first_name\na@x.example,Ann\n\"multi\nline\",x\nb@x.example,Bob,Extra\n")
                == AttendeeListError(line: 5, reason: .csv(.wrongColumnCount(expected: 2, found: 3)))
        )
        #expect(
            importError("email,first_name\na@x.example,Ann \"The Hammer\" Lee\n")
                == AttendeeListError(line: 2, reason: .csv(.quoteInUnquotedField))
        )
        #expect(importError("") == AttendeeListError(line: 1, reason: .csv(.empty)))
    }

    @Test func invalidUTF8IsRejectedWithItsLine() throws {
        var bytes = Data("email,first_name\r\na@x.example,Ann\r\nb@x.example,Ren".utf8)
        bytes.append(0xE9)  // Windows-1252 "é"
        bytes.append(Data("e\r\n".utf8))
        let error = try #require(importError(bytes))
        #expect(error == AttendeeListError(line: 3, reason: .csv(.invalidUTF8)))
        #expect(error.description.hasPrefix("line 3: "))
        #expect(error.description.contains("CSV UTF-8"))
    }

    // MARK: - Limits

    @Test func rowLimitStopsParsingAtTheFirstRowOverIt() throws {
        let limits = AttendeeListLimits(maximumRows: 3)
        // Line 6 is malformed; the error proves parsing stopped at line 5 without reading it.
        let text = "email\na@x.example\nb@x.example\nc@x.example\nd@x.example\n\"never closed\n"
        let error = try #require(importError(text, limits: limits))
        #expect(error == AttendeeListError(line: 5, reason: .tooManyRows(limit: 3)))
        #expect(
            error.description == "line 5: more than 3 attendee rows (row 4 starts on this line); split the file "
                + "into several imports of at most 3 rows each"
        )
        let standard = AttendeeListError(line: 250_002, reason: .tooManyRows(limit: 250_000))
        #expect(
            standard.description == "line 250002: more than 250,000 attendee rows (row 250,001 starts on this "
                + "line); split the file into several imports of at most 250,000 rows each"
        )
    }

    @Test func aFileExactlyAtTheRowLimitImports() throws {
        // Three records: blank lines are not rows, a duplicate and an email-less row are.
        let text = "email,first_name\na@x.example,Ann\n\n\nA@x.example,\n,Nobody\n\n"
        let result = try AttendeeListImport.parse(Data(text.utf8), limits: AttendeeListLimits(maximumRows: 3))
        #expect(result.rows.map(\.emailKey) == ["a@x.example"])
        #expect(result.merged.count == 1 && result.skipped.count == 1)
        #expect(
            importError(text + "b@x.example,Bob\n", limits: AttendeeListLimits(maximumRows: 3))
                == AttendeeListError(line: 8, reason: .tooManyRows(limit: 3))
        )
    }

    @Test func standardRowLimitIsTwoHundredFiftyThousand() throws {
        #expect(AttendeeListLimits.standard.maximumRows == 250_000)
        var text = "email,first_name\n"
        text.reserveCapacity(8_000_000)
        for index in 0..<250_000 {
            text += "p\(index)@x.example,P\(index)\n"
        }
        #expect(try importAttendeeList(text).rows.count == 250_000)
        text += "over@x.example,Over\n"
        #expect(importError(text) == AttendeeListError(line: 250_002, reason: .tooManyRows(limit: 250_000)))
    }

    @Test func oversizedFieldFailsAtTheParserWithItsLine() throws {
        var bytes = Data("email,first_name,notes\na@x.example,Ann,\nb@x.example,Bob,\"".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 10_000_000))
        bytes.append(Data("\"\n".utf8))
        let error = try #require(importError(bytes))
        #expect(error == AttendeeListError(line: 3, reason: .csv(.fieldTooLong(limit: 65_536))))
        #expect(error.description.hasPrefix("line 3: a field longer than 65,536 bytes starts on this line"))
        // The parser's guard is structural: a 64 KiB value in a column the import does not read is fine.
        let notes = String(repeating: "n", count: 65_536)
        #expect(try importAttendeeList("email,first_name,notes\na@x.example,Ann,\"\(notes)\"\n").rows.count == 1)
    }

    @Test func fileSizeIsCheckedBeforeReading() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "attendee-list-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let limits = AttendeeListLimits(maximumFileBytes: 100)
        let exact = directory.appendingPathComponent("exact.csv").path
        let contents = Data(("email\n" + String(repeating: "a", count: 88) + "@x.io\n").utf8)
        #expect(contents.count == 100)
        try contents.write(to: URL(fileURLWithPath: exact))
        #expect(try AttendeeListImport.read(contentsOfFile: exact, limits: limits) == contents)

        let over = directory.appendingPathComponent("over.csv").path
        try (contents + Data("\n".utf8)).write(to: URL(fileURLWithPath: over))
        #expect(readError(over, limits) == AttendeeListError(line: 0, reason: .fileTooLarge(bytes: 101, limit: 100)))

        // A sparse file just over the standard limit: refused from its size alone, without reading 64 MiB.
        let huge = directory.appendingPathComponent("huge.csv").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 64 * 1024 * 1024 + 1)
        try handle.close()
        let error = try #require(readError(huge, .standard))
        #expect(error == AttendeeListError(line: 0, reason: .fileTooLarge(bytes: 67_108_865, limit: 67_108_864)))
        #expect(
            error.description == "the file is 64.0 MiB (67,108,865 bytes); the largest attendee list muster imports is "
                + "64 MiB (67,108,864 bytes); split it into several files and import each one"
        )
    }

    @Test func readingANonRegularFileStopsAtTheLimit() throws {
        // /dev/zero reports size 0 and never ends: only the read bound stops it.
        let limits = AttendeeListLimits(maximumFileBytes: 1_000_000)
        #expect(
            readError("/dev/zero", limits)
                == AttendeeListError(line: 0, reason: .fileTooLarge(bytes: 1_000_001, limit: 1_000_000))
        )
        #expect(try AttendeeListImport.read(contentsOfFile: "/dev/null") == Data())
    }

    @Test func unreadableFileSaysWhy() throws {
        let error = try #require(readError("/nonexistent/attendees.csv", .standard))
        #expect(error == AttendeeListError(line: 0, reason: .unreadable("No such file or directory")))
        #expect(error.description == "the file cannot be read: No such file or directory")
        #expect(readError("/", .standard)?.reason == .unreadable("Is a directory"))
    }

    @Test func csvErrorDescriptionsCarryOver() {
        let error = AttendeeListError(line: 14, reason: .csv(.unterminatedQuote))
        #expect(error.description == CSVError(line: 14, reason: .unterminatedQuote).description)
        #expect(error.description.hasPrefix("line 14: unterminated quoted field (opened on line 14)"))
    }
}
