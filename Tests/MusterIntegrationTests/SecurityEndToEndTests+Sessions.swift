import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterSync
import MusterTestSupport
import Testing

/// Sessions (issue 36) over a real session: insiders with kiosk keys the organizer really enrolled speak
/// the real protocol to k1 and try to change what only the organizer, or another kiosk, may.
extension SecurityEndToEndTests {
    @Test(
        "60. an insider moves the organizer's session, takes over k2's spot, opens a spot without end; an honest spot still arrives"
    )
    func insiderRewritesTheSchedule() throws {
        let venue = try Venue()
        let formatter = ISO8601DateFormatter()
        let added = try venue.k1.muster([
            "session", "add", "Keynote", "--zone", "Main entrance",
            "--from", formatter.string(from: Date().addingTimeInterval(-60)),
            "--until", formatter.string(from: Date().addingTimeInterval(3_600)),
            "--organizer-key", venue.k1.organizerKey,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let opened = try venue.k2.muster(["spot", "open", "k2's spot", "--for", "10m", "--json"])
        let spotID = try #require(
            (try JSONSerialization.jsonObject(with: Data(opened.stdout.utf8)) as? [String: Any])?["sessionID"]
                as? String
        )
        try waitUntil("both kiosks hold the session and the spot", timeout: 30) {
            let digests = try venue.digests()
            let held = try venue.replica(venue.k1).view { try $0.sessionsByID() }
            return Set(digests).count == 1 && held[spotID] != nil
        }
        let before = try venue.replica(venue.k1).view { try $0.sessionsByID() }
        let keynote = try #require(before.values.first { $0.name == "Keynote" }?.payload)
        let now = Int64(Venue.nowMillis)

        var moved = keynote
        moved.startMillis += 86_400_000
        moved.endMillis += 86_400_000
        var mover = try InsiderSession(venue, name: "mover")
        try mover.send([.session(moved)])

        var hijacker = try InsiderSession(venue, name: "hijacker")
        let stolen = SessionPayload(
            id: spotID,
            name: "Mine now",
            zone: "nowhere",
            startMillis: now,
            endMillis: now + 600_000,
            code: "999999"
        )
        try hijacker.send([.session(stolen)])

        var forever = try InsiderSession(venue, name: "forever")
        let endless = SessionPayload(
            id: SessionPayload.spotPrefix(AuthorID(forever.key.publicKey)) + "01",
            name: "Forever",
            zone: "Main entrance",
            startMillis: now,
            endMillis: now + SessionPayload.maxSpotMillis + 1,
            code: "999998"
        )
        try forever.send([.session(endless)])

        // The honest delta after the hostile ones: a kiosk's own spot, within four hours.
        var host = try InsiderSession(venue, name: "host")
        let honestID = SessionPayload.spotPrefix(AuthorID(host.key.publicKey)) + "01"
        let honest = SessionPayload(
            id: honestID,
            name: "Honest spot",
            zone: "nowhere",
            startMillis: now,
            endMillis: now + 600_000,
            code: "999997"
        )
        try host.send([.session(honest)])

        try waitUntil("both kiosks hold the honest spot and agree", timeout: 30) {
            let digests = try venue.digests()
            let holding = try [venue.k1, venue.k2].allSatisfy { kiosk in
                try venue.replica(kiosk).view { try $0.sessionsByID() }[honestID] != nil
            }
            return holding && Set(digests).count == 1
        }
        for kiosk in [venue.k1, venue.k2] {
            let replica = try venue.replica(kiosk)
            for insider in [mover.key, hijacker.key, forever.key] {
                #expect(try replica.head(of: AuthorID(insider.publicKey)).seq == 0, "nothing of theirs stored")
            }
            let held = try replica.view { try $0.sessionsByID() }
            #expect(held[keynote.id]?.payload == keynote, "the organizer's session where it was")
            #expect(held[spotID]?.payload == before[spotID]?.payload, "k2's spot still k2's")
            #expect(held[endless.id] == nil)
            #expect(held[honestID]?.payload == honest)
        }
        let listed = try venue.k2.muster(["session", "list"]).stdout
        #expect(!listed.contains("Mine now") && !listed.contains("Forever"), "\(listed)")
    }
}
