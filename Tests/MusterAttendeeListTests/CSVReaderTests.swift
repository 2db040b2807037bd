import Foundation
import MusterTestSupport
import Testing

@testable import MusterAttendeeList

/// Expects the records of `table`, each as its first line and its fields.
private func expectRecords(
    _ table: CSVTable,
    _ expected: [(Int, [String])],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(table.records == expected.map { CSVRecord(line: $0.0, fields: $0.1) }, sourceLocation: sourceLocation)
}

private func parse(_ text: String) throws(CSVError) -> CSVTable {
    try CSVReader.parse(Data(text.utf8))
}

private func parseError(_ bytes: Data) -> CSVError? {
    thrownError { () throws(CSVError) in try CSVReader.parse(bytes) }
}

private func parseError(_ text: String) -> CSVError? {
    parseError(Data(text.utf8))
}

@Suite("CSVReader")
struct CSVReaderTests {
    // MARK: - Well-formed input

    @Test func parsesHeaderAndRecordsWithLineNumbers() throws {
        let table = try parse("email,name\na@x.io,Ann\nb@x.io,Bob\n")
        #expect(table.header == ["email", "name"])
        #expect(table.headerLine == 1)
        expectRecords(table, [(2, ["a@x.io", "Ann"]), (3, ["b@x.io", "Bob"])])
    }

    @Test func lastRecordWithoutTrailingNewline() throws {
        let table = try parse("a,b\n1,2")
        #expect(table.records == [CSVRecord(line: 2, fields: ["1", "2"])])
    }

    @Test func headerOnlyHasNoRecords() throws {
        let table = try parse("email,first_name\r\n")
        #expect(table.header == ["email", "first_name"])
        #expect(table.records.isEmpty)
    }

    @Test func stripsUTF8ByteOrderMark() throws {
        var bytes = Data([0xEF, 0xBB, 0xBF])
        bytes.append(Data("email,name\nzoë@x.io,Zoë\n".utf8))
        let table = try CSVReader.parse(bytes)
        #expect(table.header == ["email", "name"])
        #expect(table.records == [CSVRecord(line: 2, fields: ["zoë@x.io", "Zoë"])])
    }

    @Test func acceptsCRLFLineEnds() throws {
        let table = try parse("email,name\r\na@x.io,Ann\r\nb@x.io,Bob\r\n")
        expectRecords(table, [(2, ["a@x.io", "Ann"]), (3, ["b@x.io", "Bob"])])
    }

    @Test func acceptsLoneCRLineEnds() throws {
        let table = try parse("email,name\ra@x.io,Ann\rb@x.io,Bob\r")
        #expect(table.records.map(\.line) == [2, 3])
        #expect(table.records[1].fields == ["b@x.io", "Bob"])
    }

    @Test func quotedFieldsWithCommasAndDoubledQuotes() throws {
        let table = try parse(
            #"""
            name,company,note
            "Lovelace, Ada","Analytical Engines, Ltd","She said ""hello"""
            "",x,""""
            """#
        )
        expectRecords(
            table,
            [
                (2, ["Lovelace, Ada", "Analytical Engines, Ltd", #"She said "hello""#]),
                (3, ["", "x", "\""]),
            ]
        )
    }

    @Test func embeddedNewlinesAdvanceTheNextRecordsLine() throws {
        let text = "name,address\n\"Ann\",\"1 Main St\nSpringfield\n\"\nBob,\"2 Elm St\"\nCy,3 Oak St\n"
        let table = try parse(text)
        expectRecords(
            table,
            [
                (2, ["Ann", "1 Main St\nSpringfield\n"]),
                (5, ["Bob", "2 Elm St"]),
                (6, ["Cy", "3 Oak St"]),
            ]
        )
    }

    @Test func embeddedCRLFIsKeptAndCountedOnce() throws {
        let table = try parse("a,b\r\n\"x\r\ny\",z\r\nnext,row\r\n")
        expectRecords(table, [(2, ["x\r\ny", "z"]), (4, ["next", "row"])])
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let table = try parse("\n\nemail,name\na@x.io,Ann\n\n   \nb@x.io,Bob\n\n\n")
        #expect(table.headerLine == 3)
        #expect(table.records.map(\.line) == [4, 7])
    }

    @Test func emptyFieldsAreKept() throws {
        let table = try parse("a,b,c\n,,\n1,,3\nx,y,\n")
        #expect(table.records.map(\.fields) == [["", "", ""], ["1", "", "3"], ["x", "y", ""]])
    }

    @Test func unquotedSpacesArePreservedButPaddingAroundQuotesIsNot() throws {
        let table = try parse("a,b,c\n  spaced  , \"quoted, padded\" ,z\n")
        #expect(table.records[0].fields == ["  spaced  ", "quoted, padded", "z"])
    }

    @Test func keepsNonASCIIText() throws {
        let table = try parse("name,city\nJosé Álvarez,Kraków\n山田 太郎,東京\nAïcha 👩🏽‍💻,Zürich\n")
        #expect(
            table.records.map(\.fields) == [
                ["José Álvarez", "Kraków"], ["山田 太郎", "東京"], ["Aïcha 👩🏽‍💻", "Zürich"],
            ]
        )
    }

    @Test func detectsSemicolonDelimiter() throws {
        let text = "email;first_name;company\na@x.io;Jürgen;\"Müller; Söhne\"\nb@x.io;Eva;1,5 GmbH\n"
        let table = try parse(text)
        #expect(table.header == ["email", "first_name", "company"])
        #expect(
            table.records.map(\.fields) == [
                ["a@x.io", "Jürgen", "Müller; Söhne"], ["b@x.io", "Eva", "1,5 GmbH"],
            ]
        )
    }

    @Test func detectsTabDelimiter() throws {
        let table = try parse("email\tname\na@x.io\tAnn Lee\n")
        #expect(table.header == ["email", "name"])
        #expect(table.records[0].fields == ["a@x.io", "Ann Lee"])
    }

    @Test func commaInHeaderWinsOverSemicolons() throws {
        let table = try parse("email,note\na@x.io,one;two\n")
        #expect(table.records[0].fields == ["a@x.io", "one;two"])
    }

    @Test func singleColumnFile() throws {
        let table = try parse("email\na@x.io\nb@x.io\n")
        #expect(table.header == ["email"])
        #expect(table.records.map(\.fields) == [["a@x.io"], ["b@x.io"]])
    }

    // MARK: - Malformed input

    @Test func emptyInputIsRejected() {
        #expect(parseError("") == CSVError(line: 1, reason: .empty))
        #expect(parseError("\n\r\n  \n") == CSVError(line: 1, reason: .empty))
        #expect(parseError(Data([0xEF, 0xBB, 0xBF])) == CSVError(line: 1, reason: .empty))
    }

    @Test func unterminatedQuoteReportsTheLineWhereItOpened() throws {
        let text = "email,name\na@x.io,Ann\nb@x.io,\"Bob\nc@x.io,Cy\nd@x.io,Di\n"
        let error = try #require(parseError(text))
        #expect(error == CSVError(line: 3, reason: .unterminatedQuote))
        #expect(error.description.hasPrefix("line 3: unterminated quoted field (opened on line 3)"))
    }

    @Test func unterminatedQuoteAfterAnEmbeddedNewline() {
        let text = "a,b\n\"x\ny\",1\n2,\"open\n"
        #expect(parseError(text) == CSVError(line: 4, reason: .unterminatedQuote))
    }

    @Test func wrongColumnCountReportsLineAndCounts() throws {
        let text = "email,first_name,last_name\na@x.io,Ann,Lee\nb@x.io,Bob,Smith,Jr\n"
        let error = try #require(parseError(text))
        #expect(error == CSVError(line: 3, reason: .wrongColumnCount(expected: 3, found: 4)))
        #expect(error.description.hasPrefix("line 3: expected 3 fields"))
        #expect(parseError("a,b\n1\n") == CSVError(line: 2, reason: .wrongColumnCount(expected: 2, found: 1)))
    }

    @Test func wrongColumnCountLineAccountsForEmbeddedNewlines() {
        let text = "a,b\n\"multi\nline\",1\nshort\n"
        #expect(parseError(text) == CSVError(line: 4, reason: .wrongColumnCount(expected: 2, found: 1)))
    }

    @Test func quoteInsideUnquotedFieldIsRejected() throws {
        let error = try #require(parseError("name,size\nDisk,3.5\" floppy\n"))
        #expect(error == CSVError(line: 2, reason: .quoteInUnquotedField))
        #expect(error.description.hasPrefix("line 2: "))
    }

    @Test func textAfterClosingQuoteIsRejected() {
        #expect(parseError("a,b\n1,2\n\"x\"y,z\n") == CSVError(line: 3, reason: .quoteInUnquotedField))
    }

    @Test func invalidUTF8ReportsLineOfFirstBadByte() throws {
        var bytes = Data("email,name\r\na@x.io,Ann\r\nb@x.io,Jos".utf8)
        bytes.append(0xE9)  // Latin-1 "é", as saved by Excel's plain "CSV" option
        bytes.append(Data("\r\nc@x.io,".utf8))
        bytes.append(0xFF)  // a second bad byte later on must not change the answer
        bytes.append(Data("\r\n".utf8))
        let error = try #require(parseError(bytes))
        #expect(error == CSVError(line: 3, reason: .invalidUTF8))
        #expect(error.description.contains("UTF-8"))
    }

    @Test func invalidUTF8InsideQuotedMultilineField() {
        var bytes = Data("a,b\n\"one\ntwo ".utf8)
        bytes.append(contentsOf: [0xC3, 0x28])  // lead byte followed by a non-continuation byte
        bytes.append(Data("\",x\n".utf8))
        #expect(parseError(bytes) == CSVError(line: 3, reason: .invalidUTF8))
    }

    @Test(arguments: [
        [0xC0, 0xAF] as [UInt8],  // overlong "/"
        [0xED, 0xA0, 0x80],  // UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xE2, 0x82],  // truncated at end of file
        [0x80],  // stray continuation byte
        [0xFF, 0xFE],  // UTF-16 byte-order mark
    ])
    func rejectsIllFormedSequences(_ bad: [UInt8]) {
        var bytes = Data("a\nok\n".utf8)
        bytes.append(contentsOf: bad)
        #expect(parseError(bytes) == CSVError(line: 3, reason: .invalidUTF8))
    }

    @Test func acceptsFourByteSequences() throws {
        let table = try parse("a\n𝄞🎉\n")
        #expect(table.records[0].fields == ["𝄞🎉"])
    }

    // MARK: - Limits

    @Test func fieldLimitCountsBytesAsWrittenAndNamesTheLineWhereTheFieldStarts() throws {
        let limits = CSVLimits(maximumFieldBytes: 8, maximumRecordBytes: 100)
        // Exactly at the limit, unquoted and quoted; a doubled quote counts as the two bytes it takes in the file.
        let table = try CSVReader.parse(Data("a,b,c\n12345678,\"abcdefgh\",\"a\"\"b\"\"c\"\n".utf8), limits: limits)
        #expect(table.records[0].fields == ["12345678", "abcdefgh", "a\"b\"c"])

        func error(_ text: String) -> CSVError? {
            do {
                _ = try CSVReader.parse(Data(text.utf8), limits: limits)
                return nil
            } catch {
                return error
            }
        }
        #expect(error("a,b\nok,123456789\n") == CSVError(line: 2, reason: .fieldTooLong(limit: 8)))
        #expect(error("a,b\nok,\"123456789\"\n") == CSVError(line: 2, reason: .fieldTooLong(limit: 8)))
        // A quoted field spanning lines is reported where it opens, not where the scan gave up.
        #expect(error("a,b\nok,ok\nx,\"1\n2\n3\n456789\"\n") == CSVError(line: 3, reason: .fieldTooLong(limit: 8)))
        // An oversized unterminated field is reported as oversized: the scan stops at the limit, not at the end.
        #expect(error("a,b\nx,\"123456789 and never closed\n") == CSVError(line: 2, reason: .fieldTooLong(limit: 8)))
        #expect(error("123456789,b\n") == CSVError(line: 1, reason: .fieldTooLong(limit: 8)))
    }

    @Test func tenMegabyteFieldFailsAtTheParserWithItsLine() throws {
        let huge = Data(repeating: UInt8(ascii: "x"), count: 10_000_000)
        for (open, close) in [("\"", "\""), ("", ""), ("\"", "")] {
            var bytes = Data("email,notes\na@x.io,ok\nb@x.io,\(open)".utf8)
            bytes.append(huge)
            bytes.append(Data("\(close)\nc@x.io,ok\n".utf8))
            let error = try #require(parseError(bytes))
            #expect(error == CSVError(line: 3, reason: .fieldTooLong(limit: 65_536)))
            #expect(error.description.hasPrefix("line 3: a field longer than 65,536 bytes starts on this line"))
        }
    }

    @Test func recordLimitCountsTheWholeRecord() throws {
        let limits = CSVLimits(maximumFieldBytes: 8, maximumRecordBytes: 20)
        let fits = "a,b,c\n1234567,1234567,1234\n"  // the record is exactly 20 bytes
        #expect(try CSVReader.parse(Data(fits.utf8), limits: limits).records.count == 1)
        do {
            _ = try CSVReader.parse(Data("a,b,c\n1,2,3\n\"1\n2\",12345678,12345678\n".utf8), limits: limits)
            Issue.record("a 23-byte record passed a 20-byte limit")
        } catch {
            #expect(error == CSVError(line: 3, reason: .recordTooLong(limit: 20)))
        }
    }

    @Test func aLineOfDelimitersIsBoundedByTheRecordLimit() throws {
        let commas = String(repeating: ",", count: 2_000_000)
        #expect(parseError("email\n" + commas + "\n") == CSVError(line: 2, reason: .recordTooLong(limit: 1_048_576)))
        let error = try #require(parseError(commas))
        #expect(error == CSVError(line: 1, reason: .recordTooLong(limit: 1_048_576)))
        #expect(error.description.hasPrefix("line 1: the row starting on this line is longer than 1,048,576 bytes"))
    }

    @Test func numbersInMessagesAreGroupedInThousands() {
        #expect(CSVError.grouped(0) == "0")
        #expect(CSVError.grouped(999) == "999")
        #expect(CSVError.grouped(1_000) == "1,000")
        #expect(CSVError.grouped(65_536) == "65,536")
        #expect(CSVError.grouped(250_001) == "250,001")
        #expect(CSVError.grouped(67_108_864) == "67,108,864")
        #expect(CSVError.grouped(-1_234) == "-1,234")
    }

    // MARK: - Scale

    @Test func parsesOneHundredThousandRows() throws {
        var text = "email,first_name,last_name,company,ticket\r\n"
        text.reserveCapacity(7_000_000)
        for index in 0..<100_000 {
            let company = index % 10 == 0 ? "\"Acme, Inc. \"\"West\"\"\"" : "Acme \(index % 97)"
            text += "person\(index)@example.com,Fïrst\(index),Last\(index),\(company),T\(index)\r\n"
        }
        let table = try parse(text)
        #expect(table.records.count == 100_000)
        #expect(
            table.records[0]
                == CSVRecord(
                    line: 2,
                    fields: [
                        "person0@example.com", "Fïrst0", "Last0", "Acme, Inc. \"West\"", "T0",
                    ]
                )
        )
        #expect(
            table.records[99_999]
                == CSVRecord(
                    line: 100_001,
                    fields: [
                        "person99999@example.com", "Fïrst99999", "Last99999", "Acme \(99_999 % 97)", "T99999",
                    ]
                )
        )
    }
}
