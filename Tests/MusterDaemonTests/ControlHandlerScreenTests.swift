import Foundation
import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterDaemon

/// The public screen's `lookup` and `screen` requests: the daemon answers only what the screen may show.
@Suite("ControlHandler for the public screen")
struct ControlHandlerScreenTests {
    @Test func lookupAnswersTheMaskedNameOnly() throws {
        let f = try HandlerFixture(name: "Hall A", location: "North door")
        try f.importAndLock()
        let response = f.request(.lookup, query: " mus-0001 ")
        #expect(response.outcome == .found)
        #expect(response.maskedName == "Ada L.")
        #expect(response.admitted == true)
        #expect(response.checkIn == nil)
        #expect(response.attendee == nil, "no key, company, email or ticket")
        let json = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        for secret in ["Lovelace", "Analytical", "ada.lovelace", "MUS-0001", "00v0"] {
            #expect(!json.contains(secret), "\(secret) in \(json)")
        }
        #expect(try f.deltaCount(of: f.handler.author) == 0, "a lookup writes nothing")
    }

    @Test func lookupOfSomeoneInsideSaysWhenButNotWhere() throws {
        let f = try HandlerFixture(name: "Hall A", location: "North door")
        try f.importAndLock()
        #expect(f.request(.checkIn, query: "grace@example.com").outcome == .checkedIn)
        let response = f.request(.lookup, query: "grace@example.com")
        #expect(response.outcome == .found)
        #expect(response.maskedName == "Grace H.")
        #expect(response.checkIn == PresenceSummary(atMillis: HandlerFixture.now, kioskName: "", location: ""))
    }

    @Test func lookupOutcomesBesideFound() throws {
        let f = try HandlerFixture()
        #expect(f.request(.lookup, query: "grace@example.com").outcome == .refused, "no lock yet")
        try f.importAndLock()
        #expect(f.request(.lookup, query: "nobody@example.com").outcome == .notFound)
        #expect(f.request(.lookup, query: "grace@").outcome == .notFound, "never a prefix match")
        let refunded = f.request(.lookup, query: "refunded@example.com")
        #expect(refunded.outcome == .found && refunded.admitted == false && refunded.maskedName == "Rita R.")
        #expect(f.answer(line: #"{"op":"lookup"}"#).message == "missing query", "the query is required")
    }

    @Test func screenNamesTheCampaignAndTheRefusal() throws {
        let f = try HandlerFixture(name: "Hall Z")
        let waiting = f.handler.handle(ControlRequest.screen)
        #expect(waiting.outcome == .status && waiting.kioskName == "Hall Z" && waiting.campaignName == nil)
        try f.importAndLock(opens: Int64(HandlerFixture.now) + 3_600_000)
        let early = f.handler.handle(ControlRequest.screen)
        #expect(early.campaignName == "DevConf 2026")
        #expect(early.message?.contains("opens") == true)
    }
}
