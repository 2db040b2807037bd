import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules

/// An import applied in one transaction is one run of thousands of deltas; the pages served from it to a
/// catching-up kiosk must still fit in one sync message (at most 2,000 deltas).
@Suite("Long runs are served in bounded pages")
struct LongRunPagingTests {
    @Test("a run of 1,201 deltas ingested at once is served in pages of at most 500")
    func longRunIsServedInBoundedPages() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            var signer = venue.signer(venue.organizerKey)
            var run = [
                try signer.sign(
                    .campaign(CampaignPayload(campaignID: "big", name: "Big")),
                    hlc: HLC(physicalMillis: TestTime.start, logical: 0)
                )
            ]
            for index in 0..<1_200 {
                let body = Bodies.attendee(
                    "big",
                    email: "p\(index)@example.com",
                    first: "P",
                    last: "\(index)",
                    company: "",
                    ticket: nil
                )
                run.append(
                    try signer.sign(body, hlc: HLC(physicalMillis: TestTime.start + UInt64(index) + 1, logical: 0))
                )
            }
            let replica = try venue.openReplica(in: dir)
            #expect(try replica.ingestAtTestTime(run).applied.count == 1_201)
            var served: [SignedDelta] = []
            var from: UInt64 = 0
            while true {
                let page = try replica.deltas(of: venue.organizer, after: from, limit: 500)
                guard let last = page.last else { break }
                #expect(page.count <= 500, "a page of \(page.count)")
                served += page
                from = last.seq
            }
            #expect(served == run)
        }
    }
}
