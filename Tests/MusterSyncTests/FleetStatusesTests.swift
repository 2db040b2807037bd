import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// The fleet's statuses as a kiosk keeps them: the newest per kiosk, a bounded number, and readers
/// known per session.
struct FleetStatusesTests {
    @Test func theNewestStatusOfEachKioskIsKept() throws {
        let key = try SigningKeyPair.generate()
        func status(_ millis: UInt64) -> (KioskStatus, SignedKioskStatus) {
            let status = KioskStatus(
                kiosk: AuthorID(key.publicKey),
                printer: "none",
                freeDiskBytes: millis,
                signedMillis: millis
            )
            return (status, status.signed(by: key, venue: CoreTestKit.venue))
        }
        var fleet = FleetStatuses()
        let first = fleet.take(status(10).0, signed: status(10).1)
        let again = fleet.take(status(10).0, signed: status(10).1)
        let older = fleet.take(status(5).0, signed: status(5).1)
        let newer = fleet.take(status(20).0, signed: status(20).1)
        #expect(first && !again && !older && newer, "kept, the same again, an older one, a newer one")
        #expect(fleet.statuses[AuthorID(key.publicKey)]?.status.freeDiskBytes == 20)
        #expect(fleet.signed.count == 1)
    }

    @Test func aPeerReadsStatusesUntilItsSessionEnds() throws {
        let peer = try CoreTestKit.id()
        var fleet = FleetStatuses()
        let first = fleet.reads(peer)
        let second = fleet.reads(peer)
        fleet.ended(peer)
        let afterEnd = fleet.reads(peer)
        #expect(
            first && !second && afterEnd,
            "the first time (it is sent what is held), not again, again after the session"
        )
    }
}
