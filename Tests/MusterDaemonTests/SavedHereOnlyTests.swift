import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterDaemon

/// What of a kiosk's own check-ins no other kiosk is known to hold (`Replica.savedHereOnly`).
@Suite struct SavedHereOnlyTests {
    @Test func checkInsCountUntilAPeerIsKnownToHoldThem() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 3, rules: nil)
        let k1 = v.kiosks[0]
        #expect(v.scan(0, "a0@x.org").outcome == .checkedIn)
        #expect(v.scan(0, "nobody@x.org").outcome == .notFound)
        #expect(v.scan(0, "a1@x.org").outcome == .checkedIn)
        let before = try k1.replica.savedHereOnly(me: k1.author)
        #expect(before.checkIns == 2)
        #expect(before.records == 3, "the not-found scan is a record too")
        #expect(before.oldestMillis == v.clock.wallMillis)

        try v.syncAll()
        let head = try k1.replica.head(of: k1.author)
        // What k2's heads would say: only a report with k1's own hash at that seq counts.
        #expect(
            try !k1.replica.recordHeldElsewhere(
                AuthorHead(author: k1.author, seq: head.seq, hash: [UInt8](repeating: 0, count: 32)),
                by: v.kiosks[1].author
            )
        )
        #expect(try k1.replica.savedHereOnly(me: k1.author).checkIns == 2)
        #expect(try k1.replica.recordHeldElsewhere(head, by: v.kiosks[1].author))
        let after = try k1.replica.savedHereOnly(me: k1.author)
        #expect(after == SavedHereOnly(checkIns: 0, records: 0, oldestMillis: nil))
    }
}
