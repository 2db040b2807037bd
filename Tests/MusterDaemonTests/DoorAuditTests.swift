import MusterControl
import MusterCore
import MusterRules
import Testing

@testable import MusterDaemon

/// Every scan a kiosk answered is in the audit once, on every kiosk: an accepted one as its
/// check-in, a refused one as a `scan` delta, not-found ones aggregated per kiosk per minute.
@Suite("Door audit")
struct DoorAuditTests {
    @Test func everyAnsweredAttemptAppearsOnceOnEveryKiosk() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 5, rules: DoorRules(zones: [ZoneRule(name: "Hall", capacity: 3)], entries: .once))
        var admitted = 0
        var refused: [String: Int] = [:]
        func tally(_ response: ControlResponse) {
            if let reason = response.reason { refused[reason, default: 0] += 1 } else { admitted += 1 }
        }
        // A mixed morning on two kiosks, partly partitioned, with a scanner stuck on a bad code.
        for index in 0..<5 { tally(v.scan(index % 2, "a\(index)@x.org")) }
        tally(v.scan(0, "a0@x.org"))
        tally(v.scan(0, "refunded@x.org"))
        for _ in 0..<25 { tally(v.scan(1, "bogus-code")) }
        v.clock.advance(by: .seconds(30))
        try v.syncAll()
        for _ in 0..<10 { tally(v.scan(0, "nobody@x.org")) }
        tally(v.scan(1, "a4@x.org"))
        v.clock.advance(by: .seconds(90))
        for kiosk in v.kiosks { try kiosk.handler.flushNotFound(nowMillis: v.clock.wallMillis) }
        try v.syncAll()

        for kiosk in 0..<2 {
            let scans = try v.scans(on: kiosk)
            var counted: [String: Int] = [:]
            for scan in scans.values { counted[scan.reason.code, default: 0] += Int(scan.count) }
            #expect(counted == refused, "kiosk \(kiosk) holds every refused attempt once")
            let checkIns = try v.kiosks[kiosk].replica.presenceLog(campaignID: v.campaignID).filter {
                $0.presence.kind == .checkIn
            }
            #expect(checkIns.count == admitted, "kiosk \(kiosk) holds every admitted attempt once")
            let notFoundRecords = scans.values.filter { $0.reason == .notFound }
            #expect(notFoundRecords.count <= 4, "35 not-found attempts in at most 2 records per kiosk per minute")
            #expect(notFoundRecords.allSatisfy { $0.attendeeKey.isEmpty }, "what was typed is never recorded")
        }
        #expect(refused["not_found"] == 35)
        #expect(try v.kiosks[0].replica.digest() == v.kiosks[1].replica.digest())
    }

    @Test func aKioskOnlyWritesScansInItsOwnName() throws {
        let v = try DoorVenue(zones: ["Hall", "Hall"])
        try v.setUp(attendees: 1, rules: DoorRules())
        _ = v.scan(0, "refunded@x.org")
        let scans = try v.scans(on: 0)
        #expect(scans.count == 1)
        #expect(scans.keys.allSatisfy { $0.author == v.kiosks[0].author })
        #expect(scans.values.first?.attendeeKey == "refunded@x.org")
    }
}
