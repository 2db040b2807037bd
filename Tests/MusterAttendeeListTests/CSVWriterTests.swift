import Foundation
import MusterCore
import Testing

@testable import MusterAttendeeList

@Suite("CSVWriter")
struct CSVWriterTests {
    @Test func plainFieldsAreJoinedAndTerminatedWithCRLF() {
        #expect(CSVWriter.line(["a@x.io", "Ann", "Lee"]) == "a@x.io,Ann,Lee\r\n")
        #expect(CSVWriter.line([]) == "\r\n")
        #expect(CSVWriter.line(["", ""]) == ",\r\n")
    }

    @Test func singleBlankFieldIsQuotedSoItIsNotReadAsABlankLine() throws {
        #expect(CSVWriter.line([""]) == "\"\"\r\n")
        #expect(CSVWriter.line(["  "]) == "\"  \"\r\n")
        let table = try CSVReader.parse(Data(CSVWriter.document(header: ["email"], rows: [[""], ["  "], ["a"]]).utf8))
        #expect(table.records.map(\.fields) == [[""], ["  "], ["a"]])
    }

    @Test func quotesFieldsThatNeedIt() {
        #expect(CSVWriter.line(["Acme, Inc."]) == "\"Acme, Inc.\"\r\n")
        #expect(CSVWriter.line(["say \"hi\""]) == "\"say \"\"hi\"\"\"\r\n")
        #expect(CSVWriter.line(["two\nlines"]) == "\"two\nlines\"\r\n")
        #expect(CSVWriter.line(["a\rb"]) == "\"a\rb\"\r\n")
        #expect(CSVWriter.line(["a\r\nb", "plain"]) == "\"a\r\nb\",plain\r\n")
    }

    @Test func leavesOrdinaryTextAlone() {
        #expect(
            CSVWriter.line(["José Álvarez", "a=b", "x-y", "50%", "it's", "semi;colon"])
                == "José Álvarez,a=b,x-y,50%,it's,semi;colon\r\n"
        )
    }

    @Test(arguments: [
        ("=1+1", "'=1+1"),
        ("+x", "'+x"),
        ("-x", "'-x"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""),
        ("=HYPERLINK(\"http://evil\",\"click\")", "\"'=HYPERLINK(\"\"http://evil\"\",\"\"click\"\")\""),
        ("=SUM(A1,A2)", "\"'=SUM(A1,A2)\""),
    ])
    func neutralizesFormulaStarters(input: String, expected: String) {
        #expect(CSVWriter.line([input]) == expected + "\r\n")
    }

    @Test(
        "a formula behind leading whitespace, tabs or invisible marks is neutralized too",
        arguments: [
            (" =1+1", "' =1+1"),
            ("  +x", "'  +x"),
            ("\t=HYPERLINK(\"http://evil\")", "'\t=HYPERLINK(\"\"http://evil\"\")"),
            ("\u{A0}@SUM(A1)", "'\u{A0}@SUM(A1)"),
            ("\u{200B}-2+3", "'\u{200B}-2+3"),
            ("\u{202E}=cmd", "'\u{202E}=cmd"),
        ]
    )
    func neutralizesFormulaAfterLeadingWhitespace(input: String, expected: String) {
        let written = CSVWriter.line([input])
        // "\r\n" is one Character.
        let unquoted = written.hasPrefix("\"") ? String(written.dropFirst().dropLast(2)) : String(written.dropLast())
        #expect(unquoted == expected, "\(written.debugDescription)")
    }

    @Test("the export path: a tab before = becomes a space when sanitized, and is still neutralized")
    func tabBeforeEqualsSurvivesSanitizing() {
        let sanitized = TerminalText.sanitize("\t=HYPERLINK(\"http://evil\",\"x\")")
        #expect(sanitized.hasPrefix(" ="), "the export turns the tab into a space first")
        #expect(CSVWriter.line([sanitized]).hasPrefix("\"' =HYPERLINK("))
        #expect(CSVWriter.line(["  word"]) == "  word\r\n", "leading spaces alone are left alone")
    }

    @Test func documentWritesHeaderThenRows() {
        let text = CSVWriter.document(
            header: ["email", "checked_in_at"],
            rows: [
                ["a@x.io", "2025-05-01T09:00:00Z"],
                ["b@x.io", ""],
            ]
        )
        #expect(text == "email,checked_in_at\r\na@x.io,2025-05-01T09:00:00Z\r\nb@x.io,\r\n")
        #expect(CSVWriter.document(header: ["email"], rows: []) == "email\r\n")
    }

    @Test func roundTripsThroughTheReader() throws {
        let header = ["email", "name", "company", "note"]
        let rows = [
            ["a@x.io", "Lovelace, Ada", "Analytical \"Engines\"", "line one\nline two"],
            ["b@x.io", "Zoë Ñúñez", "", "crlf\r\ninside"],
            ["c@x.io", "  padded  ", ",", "\"\""],
            ["d@x.io", "山田", "🎉", "semi;colon\ttab"],
        ]
        let text = CSVWriter.document(header: header, rows: rows)
        let table = try CSVReader.parse(Data(text.utf8))
        #expect(table.header == header)
        #expect(table.records.map(\.fields) == rows)
        #expect(table.records.map(\.line) == [2, 4, 6, 7])
    }

    @Test func neutralizedCellsReadBackWithTheirPrefix() throws {
        let text = CSVWriter.document(header: ["a", "b"], rows: [["=1+1", "\rx"], ["-5", "@x"]])
        let table = try CSVReader.parse(Data(text.utf8))
        #expect(table.records.map(\.fields) == [["'=1+1", "'\rx"], ["'-5", "'@x"]])
    }
}
