import MusterCore
import MusterCrypto
import MusterSync
import MusterTestSupport
import Testing

/// Roster gossip's decisions, without a socket or a replica.
@Suite struct RosterGossipTests {
    @Test func aPeersCertificatesAreNewOncePerKioskUntilTheRosterHoldsThem() throws {
        let venue = try TestVenue()
        var gossip = RosterGossip(me: venue.kioskA, organizer: venue.organizer)
        let other = try SigningKeyPair.generate()
        let certificates = [
            venue.certificate(for: venue.kioskBKey, name: "B"), venue.certificate(for: other, name: "C"),
            venue.certificate(for: venue.kioskBKey, name: "B"),
            // Not an enrollment: nothing to learn from it.
            venue.lockDeltas("day1")[0],
        ]
        #expect(gossip.unknown(certificates).map(\.kiosk) == [venue.kioskB, AuthorID(other.publicKey)])
        gossip.know(venue.kioskB)
        #expect(gossip.unknown(certificates).map(\.kiosk) == [AuthorID(other.publicKey)])
    }

    @Test func devicesAreAnnouncedOnceAndNeverForOurOwnOrTheOrganizersDeltas() throws {
        let venue = try TestVenue()
        var gossip = RosterGossip(me: venue.kioskA, organizer: venue.organizer)
        var mine = venue.signer(venue.kioskAKey)
        var device = venue.signer(venue.kioskBKey)
        let ours = try mine.sign(Bodies.checkIn("day1", "a@example.com", kiosk: "A"), hlc: TestTime.at(1))
        let theirs = try device.sign(Bodies.checkIn("day1", "b@example.com", kiosk: "B"), hlc: TestTime.at(2))
        let organizers = venue.lockDeltas("day1")
        #expect(gossip.devicesToAnnounce(in: [ours]).isEmpty)
        #expect(gossip.devicesToAnnounce(in: organizers + [ours]).isEmpty)
        #expect(gossip.devicesToAnnounce(in: [ours, theirs] + organizers) == [venue.kioskB])
        gossip.announce(venue.kioskB)
        #expect(gossip.devicesToAnnounce(in: [theirs]).isEmpty)
        #expect(gossip.known.contains(venue.kioskB))
    }
}
