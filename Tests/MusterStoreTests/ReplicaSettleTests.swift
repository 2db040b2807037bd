import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// What a busy moment leaves behind is given back once the replica is quiet.
@Suite("Replica settle")
struct ReplicaSettleTests {
    func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// One transaction larger than the checkpoint size grows the WAL to its own size; nothing cut it
    /// back until the next write. `settle()` does, and the replica reads the same afterwards.
    @Test func aLargeTransactionsLogIsCutWhenTheReplicaSettles() throws {
        try withTestReplica { (venue, replica, _) throws in
            var signer = venue.signer(venue.organizerKey)
            let bodies: [DeltaBody] =
                [.campaign(CampaignPayload(campaignID: "gala", name: "Gala"))]
                + (0..<4_000).map { index in
                    Bodies.attendee(
                        "gala",
                        email: "person\(index)@example.com",
                        first: "Person\(index)",
                        last: "Surname\(index)",
                        company: "Company \(index)",
                        ticket: "T-\(index)"
                    )
                }
            let deltas = try signer.sign(bodies, fromMillis: TestTime.start)
            #expect(try replica.ingestAtTestTime(deltas).rejected.isEmpty)
            let digest = try replica.digest()
            let grown = walBytes(replica.path)
            #expect(grown > 2 * 1_048_576, "the WAL after one large transaction: \(grown) bytes")
            replica.settle()
            #expect(walBytes(replica.path) == 0)
            #expect(try replica.digest() == digest)
            #expect(try replica.view { try $0.attendees(campaignID: "gala") }.count == 4_000)
        }
    }
}
