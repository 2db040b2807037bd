import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync
import MusterTestSupport
import Testing

/// Issue 13 over a real session: an insider with a kiosk key the organizer really enrolled speaks
/// the real protocol to k1 and sends what an honest kiosk never would. (The fork and the timestamps
/// are rows 5 and 6, in SecurityEndToEndTests.swift.)
extension SecurityEndToEndTests {
    @Test(
        "15. an insider rewrites an imported attendee, mints her a ticket, forges kiosk fields, checks in where nothing is locked"
    )
    func insiderLies() throws {
        let venue = try Venue()
        let (campaign, ada) = try venue.campaignAndKey("MUS-0001")
        let before = try #require(try venue.replica(venue.k1).view { try $0.attendee(campaignID: campaign, key: ada) })

        // 1. Ada's key with Eve's email and name: refused (a registration speaks for its own email).
        var rewriter = try InsiderSession(venue, name: "rewriter")
        try rewriter.send([Self.registration(campaign, key: ada, email: "eve@evil.example")])

        // 2. Ada's own email with Eve's name: her check-in counts, her imported fields stand.
        var walker = try InsiderSession(venue, name: "walker")
        try walker.send([Self.registration(campaign, key: ada, email: before.email)])

        // 3. A check-in claiming another kiosk's name and a VIP entrance, and one in a campaign the
        //    organizer never locked.
        var forger = try InsiderSession(venue, name: "forger")
        let (_, second) = try venue.campaignAndKey("MUS-0002")
        try forger.send([Self.vipCheckIn(campaign, key: second), Self.vipCheckIn("never-locked", key: second)])

        try waitUntil("both kiosks hold the insiders' accepted deltas and agree", timeout: 30) {
            let digests = try venue.digests()
            return try [venue.k1, venue.k2].allSatisfy { try $0.status()["checkedIn"] as? Int == 2 }
                && Set(digests).count == 1
        }
        for kiosk in [venue.k1, venue.k2] {
            let replica = try venue.replica(kiosk)
            #expect(try replica.head(of: AuthorID(rewriter.key.publicKey)).seq == 0)
            let after = try #require(try replica.view { try $0.attendee(campaignID: campaign, key: ada) })
            #expect(after.displayName == before.displayName)
            #expect(after.email == before.email)
            #expect(after.company == before.company)
            #expect(after.ticket == before.ticket)
            #expect(after.isInside)
            // Nor does it mint her a ticket code (issue 32): no walk-in ticket row, no walk-in flag,
            // and W-EVIL0001 finds nobody.
            #expect(after.walkInTickets.isEmpty)
            #expect(after.walkIn == before.walkIn)
            #expect(try replica.view { try $0.lookup(campaignID: campaign, query: "W-EVIL0001") } == nil)
            #expect(try replica.status().walkIns == 0)
            let forged = try #require(
                try replica.view { try $0.attendee(campaignID: campaign, key: second) }?.firstArrival
            )
            #expect(forged.kioskName == "forger")
            #expect(forged.location == "nowhere")
            #expect(try replica.view { try $0.presences(campaignID: "never-locked", attendeeKey: second) }.isEmpty)
        }
        let lookup = try venue.k2.muster(["lookup", "MUS-0002"]).stdout
        #expect(!lookup.contains("VIP"), "\(lookup)")
        for kiosk in [venue.k1, venue.k2] {
            let minted = try kiosk.muster(["lookup", "W-EVIL0001"])
            #expect(minted.status != 0, "\(minted.stdout)")
            #expect(minted.stderr.contains("no attendee matches"), "\(minted.stderr)")
            #expect(!minted.stdout.contains("Lovelace") && !minted.stdout.contains("Mallory"), "\(minted.stdout)")
        }
    }

    @Test("7c. revoke --watermark SEQ keeps the kiosk's records up to SEQ and prints what it drops")
    func revokeWithAChosenWatermark() throws {
        let venue = try Venue()
        #expect(try venue.k2.muster(["checkin", "MUS-0001"]).status == 0)
        #expect(try venue.k2.muster(["checkin", "MUS-0002"]).status == 0)
        try waitUntil("k1 has both of k2's check-ins", timeout: 20) { try venue.k1.status()["checkedIn"] as? Int == 2 }
        let both = try venue.k1.muster(["revoke", "k2", "--watermark", "1", "--before", "10:00"])
        #expect(both.status != 0)
        let revoked = try venue.k1.muster([
            "revoke", "k2", "--watermark", "1", "--organizer-key", venue.k1.organizerKey,
        ])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        #expect(revoked.stdout.contains("records up to #1 stay"), "\(revoked.stdout)")
        #expect(revoked.stdout.contains("Dropped here: 1 record(s)."), "\(revoked.stdout)")
        let (_, second) = try venue.campaignAndKey("MUS-0002")
        #expect(revoked.stdout.contains("#2 check-in at "), "\(revoked.stdout)")
        #expect(revoked.stdout.contains(second), "\(revoked.stdout)")
        try waitUntil("k1 counts only the first check-in", timeout: 20) {
            try venue.k1.status()["checkedIn"] as? Int == 1
        }
    }

    @Test("7d. revoke --before TIME drops what the kiosk sent after TIME, even stamped before it")
    func revokeBeforeATimeDropsABackDatedForgery() throws {
        let venue = try Venue()
        let (campaign, ada) = try venue.campaignAndKey("MUS-0001")
        let (_, grace) = try venue.campaignAndKey("MUS-0002")
        var thief = try InsiderSession(venue, name: "thief")
        let thiefID = AuthorID(thief.key.publicKey)
        let stamp = Venue.nowMillis
        let honest = try thief.log.sign(Self.checkIn(campaign, key: ada), hlc: HLC(physicalMillis: stamp, logical: 0))
        try thief.peer.send(.deltas([honest]))
        try waitUntil("k1 holds the kiosk's check-in", timeout: 20) {
            try venue.replica(venue.k1).head(of: thiefID).seq == 1
        }
        // Taken at `cut`; afterwards it sends a check-in stamped before the cut (stamps need only increase).
        let cut = (Venue.nowMillis / 1_000 + 1) * 1_000
        try waitUntil("the clock passes the time the kiosk was taken", timeout: 5) { Venue.nowMillis >= cut }
        let forged = try thief.log.sign(Self.checkIn(campaign, key: grace), hlc: HLC(physicalMillis: stamp, logical: 1))
        try thief.peer.send(.deltas([forged]))
        try waitUntil("k1 holds the back-dated check-in", timeout: 20) {
            try venue.replica(venue.k1).head(of: thiefID).seq == 2
        }

        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(cut) / 1_000))
        let revoked = try venue.k1.muster([
            "revoke", "thief", "--before", time, "--organizer-key", venue.k1.organizerKey,
        ])
        #expect(revoked.status == 0, "revoke: \(revoked.stderr)")
        #expect(revoked.stdout.contains("records up to #1 stay"), "\(revoked.stdout)")
        #expect(revoked.stdout.contains("Dropped here: 1 record(s)."), "\(revoked.stdout)")
        #expect(revoked.stdout.contains("#2 check-in at "), "\(revoked.stdout)")
        #expect(revoked.stdout.contains(grace), "\(revoked.stdout)")
        #expect(revoked.stdout.contains("(stamped before the time, received after it)"), "\(revoked.stdout)")

        // The forgery is gone from both kiosks, the check-in before the cut stays, and an honest
        // check-in made after the revocation arrives.
        #expect(try venue.k1.muster(["checkin", "MUS-0003"]).status == 0)
        let (_, third) = try venue.campaignAndKey("MUS-0003")
        try waitUntil("both kiosks dropped the forgery and hold the honest check-in", timeout: 30) {
            try [venue.k1, venue.k2].allSatisfy { kiosk in
                try venue.replica(kiosk).view { view in
                    try view.presences(campaignID: campaign, attendeeKey: grace).isEmpty
                        && !view.presences(campaignID: campaign, attendeeKey: ada).isEmpty
                        && !view.presences(campaignID: campaign, attendeeKey: third).isEmpty
                }
            }
        }
        for kiosk in [venue.k1, venue.k2] {
            #expect(try venue.replica(kiosk).head(of: thiefID).seq <= 1)
            #expect(try kiosk.status()["checkedIn"] as? Int == 2)
        }
    }

    static func checkIn(_ campaign: String, key: String) -> DeltaBody {
        .checkIn(
            CheckInPayload(
                PresencePayload(
                    campaignID: campaign,
                    attendeeKey: key,
                    kioskName: "thief",
                    location: "",
                    memberStatus: "Attended"
                )
            )
        )
    }

    /// A check-in that claims to be k1's at a VIP entrance.
    static func vipCheckIn(_ campaign: String, key: String) -> DeltaBody {
        .checkIn(
            CheckInPayload(
                PresencePayload(
                    campaignID: campaign,
                    attendeeKey: key,
                    kioskName: "k1",
                    location: "VIP entrance",
                    memberStatus: "Attended"
                )
            )
        )
    }

    /// An insider (a kiosk key the organizer really enrolled) in session with k1, with its own log.
    struct InsiderSession {
        let key: SigningKeyPair
        let peer: RawPeer
        var log: DeltaSigner

        init(_ venue: Venue, name: String) throws {
            let (key, certificate) = try venue.insider(name)
            self.key = key
            peer = try venue.session(key, certificate)
            log = DeltaSigner(venue: venue.joined.venue, startingLogOf: key)
        }

        /// Signs `bodies` at the venue's "now" (logical 0, 1, …) and sends them as one batch.
        mutating func send(_ bodies: [DeltaBody]) throws {
            var deltas: [SignedDelta] = []
            for (index, body) in bodies.enumerated() {
                deltas.append(try log.sign(body, hlc: HLC(physicalMillis: Venue.nowMillis, logical: UInt16(index))))
            }
            try peer.send(.deltas(deltas))
        }
    }

    static func registration(_ campaign: String, key: String, email: String) -> DeltaBody {
        .registration(
            RegistrationPayload(
                presence: PresencePayload(
                    campaignID: campaign,
                    attendeeKey: key,
                    kioskName: "k1",
                    location: "",
                    memberStatus: "Attended"
                ),
                email: email,
                firstName: "Eve",
                lastName: "Mallory",
                company: "Evil Corp",
                ticket: "W-EVIL0001"
            )
        )
    }
}
