import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterSync
import MusterTestSupport
import Testing

/// A session's hello over a real session: until the peer's hello the core repairs nothing from it, so
/// a kiosk that never says hello, while it pings to look alive, would hold one of k1's few sessions
/// and feed it nothing (RELIABILITY.md, finding 32). k1 closes it at the hello timeout.
extension SecurityEndToEndTests {
    @Test(
        "61. an insider who never says hello but pings to look alive is closed at the hello timeout; an honest delta still arrives"
    )
    func insiderWithoutHelloIsClosed() throws {
        let venue = try Venue()
        let mute = try InsiderSession(venue, name: "mute")
        let opened = ContinuousClock.now
        // What a kiosk claims in its hello, sent as plain heads: claims k1 must not act on.
        try mute.peer.send(.heads([AuthorHead(author: AuthorID(mute.key.publicKey), seq: 3, hash: Delta.genesisPrev)]))

        let (closed, messages) = mute.peer.pingUntilClosed(within: .seconds(60))
        let lasted = ContinuousClock.now - opened
        #expect(closed, "k1 kept a session without a hello for a minute (it sent \(messages.count) messages)")
        #expect(lasted >= SyncLimits.helloTimeout - .seconds(1), "closed after \(lasted): not for want of a hello")
        #expect(venue.k1.daemonLog().contains("noHello"), "\(venue.k1.daemonLog().suffix(2_000))")

        // The honest delta after the hostile session.
        var honest = try InsiderSession(venue, name: "honest")
        try honest.peer.send(.deltas([try venue.checkIn("MUS-0003", signer: &honest.log)]))
        try waitUntil("both kiosks hold the honest check-in and agree", timeout: 30) {
            let digests = try venue.digests()
            return try [venue.k1, venue.k2].allSatisfy { try $0.status()["checkedIn"] as? Int == 1 }
                && Set(digests).count == 1
        }
        for kiosk in [venue.k1, venue.k2] {
            #expect(try venue.replica(kiosk).head(of: AuthorID(mute.key.publicKey)).seq == 0, "nothing of the mute's")
            #expect(try venue.replica(kiosk).head(of: AuthorID(honest.key.publicKey)).seq == 1)
        }
    }
}
