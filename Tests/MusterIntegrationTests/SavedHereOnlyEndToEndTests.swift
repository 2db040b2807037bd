import Foundation
import Testing

/// "Saved here only" (issue 37): three real kiosks on loopback, k1 the only link between k2 and k3.
/// With k1 gone, a check-in on k2 is held by no other kiosk, and `muster status` says so to staff;
/// once k1 is back and holds it, the mark goes.
@Suite("Saved here only", .serialized)
struct SavedHereOnlyEndToEndTests {
    static func saved(_ kiosk: KioskHarness) throws -> Int? {
        (try kiosk.status()["savedHereOnly"] as? [String: Any])?["checkIns"] as? Int
    }

    @Test("a check-in no peer holds is marked for staff until a peer holds it")
    func markedUntilAPeerHoldsIt() throws {
        let lab = try SyncEndToEndTests.Lab.startedAndLocked()
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        #expect(try lab.k2.muster(["checkin", "p6@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        try waitUntil("k1 is known to hold k2's check-in", timeout: 20) { try Self.saved(lab.k2) == 0 }

        try lab.k1.stop()
        #expect(try lab.k2.muster(["checkin", "p7@example.com"]).status == 0)
        #expect(try Self.saved(lab.k2) == 1, "k2 alone holds p7's check-in")
        let text = try lab.k2.muster(["status"]).stdout
        #expect(text.contains("SAVED HERE: 1 check-in(s) since"), "\(text)")
        #expect(!text.contains("p7@"), "staff line names nobody")

        let healed = Date()
        try lab.k1.start()
        try waitUntil("k1 holds p7's check-in and k2 knows it", timeout: 30) { try Self.saved(lab.k2) == 0 }
        print("saved here only: cleared \(Int(Date().timeIntervalSince(healed) * 1000)) ms after k1 was started again")
        #expect(!(try lab.k2.muster(["status"]).stdout.contains("SAVED HERE")))
    }
}
