import Foundation
import Testing

/// `muster fleet` on real kiosks (issue 37): every enrolled kiosk is listed, in session or when it
/// was last heard, with how far its records reach on the kiosk asked.
@Suite("The fleet at a glance", .serialized)
struct FleetEndToEndTests {
    static func fleet(_ kiosk: KioskHarness) throws -> [[String: Any]] {
        let result = try kiosk.muster(["fleet", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["kiosks"] as? [[String: Any]] ?? []
    }

    static func entry(_ kiosks: [[String: Any]], _ name: String) -> [String: Any]? {
        kiosks.first { $0["name"] as? String == name }
    }

    /// Each kiosk's signed status reaches the others, through a kiosk in between too (k1 is the only
    /// link between k2 and k3): k2 learns k3's software, printer and free disk from k3's own signature.
    @Test("every kiosk's signed status reaches every other, relayed")
    func statusesReachEveryKiosk() throws {
        let lab = try SyncEndToEndTests.Lab.startedAndLocked()
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        try waitUntil("k2 holds k3's status and k1's", timeout: 30) {
            let kiosks = try Self.fleet(lab.k2)
            return ["k1", "k3"].allSatisfy { (Self.entry(kiosks, $0)?["status"] as? [String: Any]) != nil }
        }
        let k3 = try #require(Self.entry(try Self.fleet(lab.k2), "k3")?["status"] as? [String: Any])
        #expect(k3["software"] as? String == "0.6.7")
        #expect(k3["printer"] as? String == "none")
        #expect((k3["freeDiskBytes"] as? Int ?? 0) > 0)
        #expect((k3["lockFeatures"] as? [String])?.contains("screen-language") == true)
        let text = try lab.k2.muster(["fleet"]).stdout
        #expect(text.contains("muster 0.6.7, printer none, "), "\(text)")
        #expect(!text.contains("no status heard"), "\(text)")
    }

    @Test("every kiosk listed; one that stops is shown as last heard, not in session")
    func everyKioskAndWhenItWasHeard() throws {
        let lab = try SyncEndToEndTests.Lab.startedAndLocked()
        defer { for kiosk in lab.all { try? kiosk.stop() } }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        #expect(try lab.k3.muster(["checkin", "p9@example.com"]).status == 0)
        try SyncEndToEndTests.waitForEqualDigests(lab.all)
        let all = try Self.fleet(lab.k1)
        #expect(all.count == 3, "\(all)")
        #expect(Self.entry(all, "k1")?["thisKiosk"] as? Bool == true)
        for name in ["k2", "k3"] { #expect(Self.entry(all, name)?["inSession"] as? Bool == true, "\(name)") }
        #expect(Self.entry(all, "k3")?["records"] as? Int == 1, "k3's check-in is held on k1")

        try lab.k3.stop()
        try waitUntil("k1 no longer in session with k3", timeout: 20) {
            Self.entry(try Self.fleet(lab.k1), "k3")?["inSession"] as? Bool == false
        }
        let k3 = Self.entry(try Self.fleet(lab.k1), "k3")
        #expect(k3?["lastHeardMillis"] as? Int != nil, "k3 was heard before it stopped")
        let text = try lab.k1.muster(["fleet"]).stdout
        #expect(text.hasPrefix("Fleet: 3 enrolled kiosk(s), 1 in session with this one"), "\(text)")
        #expect(text.contains("last heard "), "\(text)")
    }
}
