import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// Issue 32: an insider cannot freeze an attendee inside. The door's own `checkout` and `checkin`
/// requests, against a replica holding an enrolled kiosk's flood of valid check-ins of her.
@Suite("An insider's flood of check-ins at the door")
struct InsiderCheckOutTests {
    @Test func aCheckOutEndsHerPresenceWhateverAnInsiderWrote() throws {
        let f = try HandlerFixture.importedAndLocked()
        let grace = "grace@example.com"
        #expect(f.request(.checkIn, query: grace).outcome == .checkedIn)

        let insider = try SigningKeyPair.generate()
        try f.enrollPeer(insider, name: "Insider", location: "Side door")
        var signer = DeltaSigner(venue: f.venue, keyPair: insider, head: .empty(AuthorID(insider.publicKey)))
        let flood = try (0..<17).map { index in
            try signer.sign(
                Bodies.checkIn(f.campaignID, grace, kiosk: "Insider"),
                hlc: HLC(physicalMillis: HandlerFixture.now - 1_000 + UInt64(index), logical: 0)
            )
        }
        let report = try f.replica.ingest(flood, nowMillis: HandlerFixture.now, clockBoundMillis: TestTime.clockBound)
        #expect(report.applied == flood)
        #expect(try f.attendeeRecord(grace)?.openArrivals.count == 18)

        let out = f.request(.checkOut, query: grace)
        #expect(out.outcome == .checkedOut)
        let record = try #require(try f.attendeeRecord(grace))
        #expect(record.openArrivals.isEmpty)
        #expect(!record.isInside)
        #expect(try f.replica.status().inside == 0)
        #expect(f.request(.checkOut, query: grace).outcome == .notCheckedIn)

        // Her next check-in is admitted (the honest control: it is written and she is inside).
        let back = f.request(.checkIn, query: grace)
        #expect(back.outcome == .checkedIn, "\(back.message ?? "")")
        #expect(try f.attendeeRecord(grace)?.openArrivals.map(\.ref.author) == [f.handler.author])
    }
}
