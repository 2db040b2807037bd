import Foundation
import MusterTestSupport
import Testing

@testable import MusterBadge

@Suite("BadgeRenderer")
struct BadgeRendererTests {
    static let polish = BadgeContent(
        eventName: "Konferencja Wrocław 2026",
        firstName: "Łucja",
        lastName: "Żółkiewska-Gęślą",
        company: "Spółdzielnia Źródło",
        code: "MUSTER-7Q4K-22"
    )

    /// pdftotext reads the names back out of the PDF: the text is real text with a ToUnicode map,
    /// shaped with fonts that cover Polish, Chinese and Arabic.
    @Test(
        .enabled(if: ToolRun.available("pdftotext"), "pdftotext (poppler-utils) is not installed"),
        arguments: [
            polish,
            BadgeContent(eventName: "开发者大会", firstName: "小明", lastName: "王", company: "北京科技", code: "T-1"),
            BadgeContent(eventName: "Summit", firstName: "مريم", lastName: "الحسيني", company: "Acme", code: "T-2"),
        ]
    )
    func pdfHoldsTheNames(content: BadgeContent) throws {
        let rendering = try BadgeRenderer(layout: .standard).render(content, as: .pdf)
        #expect(rendering.bytes.starts(with: Array("%PDF-".utf8)))
        #expect(rendering.shortened.isEmpty && rendering.missingGlyphs.isEmpty)
        let text = try Self.pdfText(rendering)
        for word in [content.eventName, content.firstName, content.lastName, content.company] {
            #expect(text.contains(word), "'\(word)' not in: \(text)")
        }
    }

    /// The PDF page is the label's size, in points (62 × 100 mm = 175.7 × 283.5 pt).
    @Test func pdfPageIsTheLabelSize() throws {
        let rendering = try BadgeRenderer(layout: .standard).render(Self.polish, as: .pdf)
        let pdf = String(decoding: rendering.bytes, as: UTF8.self)
        #expect(pdf.contains("/MediaBox [ 0 0 175.748031 283.464567 ]"), "\(pdf.prefix(600))")
    }

    @Test func pngIsThePrintResolution() throws {
        let rendering = try BadgeRenderer(layout: BadgeLayout(size: .fourByThreeInches, fields: BadgeField.standard))
            .render(Self.polish, as: .png)
        let bytes = rendering.bytes
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == 1200 && be32(20) == 900, "4 × 3 in at 300 dpi")
    }

    /// A scanner reads the ticket code off the rendered badge.
    @Test(.enabled(if: ToolRun.available("zbarimg"), "zbarimg (zbar-tools) is not installed"))
    func qrCodeScansBackToTheTicket() throws {
        let directory = try TemporaryDirectory("muster-badge")
        defer { directory.remove() }
        let path = directory.file("badge.png")
        let rendering = try BadgeRenderer(layout: .standard).render(Self.polish, as: .png)
        try Data(rendering.bytes).write(to: URL(fileURLWithPath: path))
        let run = try ToolRun.run("zbarimg", ["--quiet", "--raw", "-Sbinary", path])
        #expect(run.status == 0, "\(run.errorOutput)")
        #expect(run.output == Self.polish.code)
    }

    /// A long name shrinks, then wraps; every word is still on the badge, nothing is reported cut.
    @Test func longNamesWrapRatherThanCut() throws {
        var content = Self.polish
        content.firstName = "Maria Magdalena Konstancja"
        content.lastName = "Wierzbicka-Przybyszewska-Szczebrzeszyńska"
        let rendering = try BadgeRenderer(layout: .standard).render(content, as: .pdf)
        #expect(rendering.shortened.isEmpty)
        let text = try Self.pdfText(rendering).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for word in ["Maria", "Magdalena", "Konstancja", "Wierzbicka", "Szczebrzeszy"] {
            #expect(text.contains(word), "'\(word)' not in \(text)")
        }
    }

    /// A name no size and two lines can hold is ellipsized — and the rendering says so.
    @Test func anImpossibleNameIsReportedNotSilentlyCut() throws {
        var content = Self.polish
        content.firstName = String(repeating: "Bartholomew ", count: 12)
        let rendering = try BadgeRenderer(layout: .standard).render(content, as: .pdf)
        #expect(rendering.shortened == [.firstName])
    }

    @Test func onlyTheListedFieldsAreDrawn() throws {
        let layout = BadgeLayout(size: .a6, fields: [.firstName, .lastName])
        let text = try Self.pdfText(try BadgeRenderer(layout: layout).render(Self.polish, as: .pdf))
        #expect(text.contains("Łucja") && !text.contains("Wrocław") && !text.contains("Spółdzielnia"))
    }

    /// Badges by type (issue 35): the type's word in a band on the types that list it, fields per type.
    @Test(.enabled(if: ToolRun.available("pdftotext"), "pdftotext (poppler-utils) is not installed"))
    func aTypesBadgeCarriesItsWordAndItsOwnFields() throws {
        let layout = try BadgeLayout.parsing(
            size: "62x100",
            fields: ["first_name", "company"],
            typeFields: ["Speaker": ["type", "first_name", "qr"]]
        )
        var speaker = Self.polish
        speaker.ticketType = "speaker"
        let text = try Self.pdfText(try BadgeRenderer(layout: layout).render(speaker, as: .pdf))
        #expect(text.contains("SPEAKER") && text.contains("Łucja") && !text.contains("Spółdzielnia"))
        var general = Self.polish
        general.ticketType = "General"
        let plain = try Self.pdfText(try BadgeRenderer(layout: layout).render(general, as: .pdf))
        #expect(!plain.contains("GENERAL") && plain.contains("Spółdzielnia"), "a type no template names: the fields")
        #expect(throws: BadgeError.self) {
            try BadgeLayout.parsing(size: "62x100", fields: ["qr"], typeFields: ["VIP": ["band"]])
        }
    }

    static func pdfText(_ rendering: BadgeRendering) throws -> String {
        let directory = try TemporaryDirectory("muster-badge")
        defer { directory.remove() }
        let path = directory.file("badge.pdf")
        try Data(rendering.bytes).write(to: URL(fileURLWithPath: path))
        let run = try ToolRun.run("pdftotext", ["-enc", "UTF-8", path, "-"])
        guard run.status == 0 else { throw BadgeError(.renderFailed, "pdftotext failed", cause: run.errorOutput) }
        return run.output
    }
}
