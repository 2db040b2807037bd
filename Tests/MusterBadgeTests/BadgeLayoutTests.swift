import Testing

@testable import MusterBadge

@Suite("BadgeLayout and BadgeSize")
struct BadgeLayoutTests {
    @Test func sizesParse() throws {
        #expect(try BadgeSize(parsing: "62x100") == .label62x100)
        #expect(try BadgeSize(parsing: "A6") == .a6)
        #expect(try BadgeSize(parsing: "4x3in") == .fourByThreeInches)
        #expect(try BadgeSize(parsing: " 54 x 86 mm ") == BadgeSize(widthMillimetres: 54, heightMillimetres: 86))
        #expect(BadgeSize.fourByThreeInches.description == "101.6×76.2 mm")
    }

    @Test(arguments: ["", "62", "62x", "x100", "a4x", "5x5", "62x1000", "4x3ft"])
    func badSizesAreRefused(text: String) {
        #expect(throws: BadgeError.self) { try BadgeSize(parsing: text) }
    }

    @Test func fieldsParse() throws {
        #expect(try BadgeLayout.fields(parsing: ["event", "first_name", "qr"]) == [.event, .firstName, .qr])
        #expect(throws: BadgeError.self) { try BadgeLayout.fields(parsing: ["first_name", "first_name"]) }
        #expect(throws: BadgeError.self) { try BadgeLayout.fields(parsing: [] as [String]) }
        do {
            _ = try BadgeLayout.fields(parsing: ["firstname"])
            Issue.record("an unknown field was accepted")
        } catch {
            #expect(error.code == .badLayout && error.message.contains("first_name"))
        }
    }

    @Test func formatFollowsTheExtension() throws {
        #expect(try BadgeFormat(path: "/tmp/Badge.PDF") == .pdf)
        #expect(try BadgeFormat(path: "badge.png") == .png)
        #expect(throws: BadgeError.self) { try BadgeFormat(path: "badge.jpg") }
    }
}
