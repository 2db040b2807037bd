import Foundation
import Testing

/// A replaced badge is dead everywhere (issue 37, item 6): three real kiosks on loopback. Staff at k2
/// replace p5's badge; within a second k1 and k3 hold the replacement, and from then on every kiosk
/// refuses the old code with `replaced` while the new one admits. `--restore` turns it round.
@Suite("Replaced badges in the lab", .serialized)
struct BadgeReplaceEndToEndTests {
    @Test("replace on one kiosk: the old code is refused on the others within a second")
    func replaceRefuseRestore() throws {
        let lab = try SyncEndToEndTests.Lab.startedAndLocked()
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        // `muster badge replace` asks the fleet first: every kiosk must have said it reads kind 14.
        for kiosk in [lab.k1, lab.k2] {
            try waitUntil("the kiosk holds every other kiosk's status", timeout: 30) {
                try FleetEndToEndTests.fleet(kiosk).allSatisfy {
                    $0["thisKiosk"] as? Bool == true || $0["status"] != nil
                }
            }
        }

        let started = Date()
        let replaced = try lab.k2.muster(["badge", "replace", "p5@example.com", "--no-print", "--json"])
        #expect(replaced.status == 0, "\(replaced.stdout) \(replaced.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(replaced.stdout.utf8)) as? [String: Any]
        #expect(answer?["outcome"] as? String == "badge_replaced")
        let code = try #require(answer?["ticket"] as? String)
        #expect(code.hasPrefix("R-"))
        try SyncEndToEndTests.waitForEqualDigests(lab.all, timeout: 10)
        let heard = Date().timeIntervalSince(started)
        print("badge replace: every kiosk held the replacement \(Int(heard * 1000)) ms after the command started")
        #expect(heard < 1, "every kiosk held the replacement after \(heard) s")

        for kiosk in [lab.k1, lab.k3] {
            let refused = try kiosk.muster(["checkin", "T-5", "--json"])
            #expect(refused.status == 4, "\(refused.stdout)")
            let json = try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any]
            #expect(json?["reason"] as? String == "replaced")
            #expect((json?["message"] as? String)?.contains("at k2") == true, "\(refused.stdout)")
        }
        // An honest check-in after the refusals: the new code admits, and every kiosk hears it.
        #expect(try lab.k3.muster(["checkin", code]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        #expect(try lab.k1.muster(["checkin", "p5@example.com"]).status == 3, "already inside")

        let restored = try lab.k1.muster(["badge", "replace", "p5@example.com", "--restore"])
        #expect(restored.status == 0, "\(restored.stdout) \(restored.stderr)")
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        let dead = try lab.k2.muster(["checkin", code, "--json"])
        #expect(dead.status == 4 && dead.stdout.contains("\"replaced\""), "\(dead.stdout)")
        #expect(try lab.k2.muster(["checkin", "T-5"]).status == 3, "the list's code is p5's again")
    }
}
