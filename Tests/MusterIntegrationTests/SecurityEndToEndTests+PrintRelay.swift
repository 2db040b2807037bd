import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSync
import MusterTestSupport
import Testing

extension SecurityEndToEndTests {
    /// The first print reply for request `id` the peer hears (other messages skipped), or nil once the
    /// kiosk closes the session or falls silent.
    static func printReply(_ id: UInt64, from peer: RawPeer) -> RelayedPrintReply? {
        while let message = peer.receive() {
            if case .printReply(let reply) = message, reply.id == id { return reply }
        }
        return nil
    }

    /// SECURITY.md row 54: an enrolled kiosk's key asks k1 (which has a printer) to print badges through
    /// the real protocol: for someone not checked in, for no one, twice at once, and again after a
    /// badge came out; and it answers a request nobody made. Nothing comes out but the one badge the
    /// screen itself could have printed after the insider's honest check-in, once.
    @Test(
        "54. a kiosk key makes a neighbour print at most one badge per checked-in attendee",
        .enabled(if: PrivateCups.isAvailable, "needs root, cups and cups-ipp-utils")
    )
    func relayedPrintsAreBoundedByTheGuard() async throws {
        let cups = try PrivateCups()
        defer { cups.shutdown() }
        let venue = try Venue(k1PrintingTo: cups)
        let (insider, certificate) = try venue.insider("desk")
        let peer = try venue.session(insider, certificate)
        let grace = try venue.campaignAndKey("MUS-0002").key
        let alan = try venue.campaignAndKey("MUS-0003").key

        try peer.send(.printRequest(RelayedPrint(id: 1, attendeeKey: grace, after: 0)))
        let notIn = try #require(Self.printReply(1, from: peer), "k1 answers")
        #expect(notIn.outcome == .notPrinted, "a badge follows a check-in: \(notIn.message)")
        try peer.send(.printRequest(RelayedPrint(id: 2, attendeeKey: "nobody@example.com", after: 0)))
        #expect(try #require(Self.printReply(2, from: peer)).outcome == .notPrinted)
        try peer.send(.printReply(RelayedPrintReply(id: 77, outcome: .printed, job: 5)))

        // The honest part: the insider checks Grace and Alan in, as its screen would, and asks for both
        // badges at once, after the check-ins.
        var signer = DeltaSigner(venue: venue.joined.venue, startingLogOf: insider)
        try peer.send(
            .deltas([try venue.checkIn("MUS-0002", signer: &signer), try venue.checkIn("MUS-0003", signer: &signer)])
        )
        try peer.send(.printRequest(RelayedPrint(id: 3, attendeeKey: grace, after: 2)))
        try peer.send(.printRequest(RelayedPrint(id: 4, attendeeKey: alan, after: 2)))
        var replies: [UInt64: RelayedPrintReply] = [:]
        while replies.count < 2, let message = peer.receive() {
            if case .printReply(let reply) = message { replies[reply.id] = reply }
        }
        #expect(replies[3]?.outcome == .printed, "\(replies[3]?.message ?? "no reply")")
        #expect(
            replies[4]?.outcome == .notPrinted && replies[4]?.message.contains("busy") == true,
            "one badge at a time: \(replies[4]?.message ?? "no reply")"
        )
        try peer.send(.printRequest(RelayedPrint(id: 5, attendeeKey: grace, after: 2)))
        #expect(try #require(Self.printReply(5, from: peer)).outcome == .alreadyPrinted)

        #expect(try await cups.printer.waitForJobs(1).count == 1)
        let badges = try venue.replica(venue.k1).view { view in
            try view.badges(campaignID: try venue.campaignAndKey("MUS-0002").campaign, attendeeKey: grace)
        }
        #expect(
            badges.map(\.reason) == [.selfService] && badges.first?.kioskName == "k1",
            "recorded once, by k1: \(badges)"
        )
        try waitUntil("k2 holds the check-ins and k1's badge", timeout: 20) { Set(try venue.digests()).count == 1 }
        #expect(try venue.k2.status()["checkedIn"] as? Int == 2)
        #expect(cups.printer.jobs.count == 1, "nothing else came out")
    }
}
