import Foundation
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The one-statement author lookup every write starts with: it must say what the separate lookups
/// it replaced said, for an author in each state.
@Suite struct AuthorRecordTests {
    /// Read on a reader (GRDB's statement cache), and checked against the writer's read with its
    /// prepared statements (``HotStatements``), which ingest and local writes use.
    static func record(_ replica: Replica, _ author: AuthorID, _ venue: TestVenue) throws -> AuthorRecord {
        let read = try replica.read { db in try AuthorRecord.fetch(author, policy: venue.policy, db: db) }
        let written = try replica.writer().write { db in
            try AuthorRecord.fetch(author, policy: venue.policy, db: db, hot: replica.hot)
        }
        #expect(written == read)
        return read
    }

    @Test func readsHeadClockCertificateAndRosterInOneRow() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir)
            let stranger = AuthorID(try SigningKeyPair.generate().publicKey)

            let unknown = try Self.record(replica, stranger, venue)
            #expect(unknown.membership == .unknown)
            #expect(unknown.head == .empty(stranger))
            #expect(unknown.headHLC == nil && unknown.forkCut == nil && unknown.certificateHLC == nil)
            #expect(!unknown.isDevice)

            let fresh = try Self.record(replica, venue.kioskA, venue)
            #expect(fresh.membership == .enrolled(name: "Kiosk A", location: "Hall"))
            #expect(fresh.head.seq == 0 && fresh.headHLC == nil)
            #expect(fresh.certificateHLC == venue.certificate(for: venue.kioskAKey, name: "Kiosk A").hlc)

            let deltas = try RosterTests.checkIns(venue, key: venue.kioskAKey, count: 3)
            try replica.ingestAtTestTime(deltas)
            let written = try Self.record(replica, venue.kioskA, venue)
            #expect(written.head == (try replica.head(of: venue.kioskA)))
            #expect(written.head.seq == 3)
            #expect(written.headHLC == deltas[2].hlc)

            let organizer = try Self.record(replica, venue.organizer, venue)
            #expect(organizer.membership == .organizer)
            #expect(organizer.certificateHLC == nil)

            let revoke = try RosterTests.revoke(venue, kiosk: venue.kioskA, watermark: 2)
            try replica.ingestAtTestTime([revoke])
            let revoked = try Self.record(replica, venue.kioskA, venue)
            #expect(revoked.membership == .revoked(watermark: 2, evidence: revoke))
            #expect(revoked.head.seq == 2)
            #expect(revoked.headHLC == deltas[1].hlc)
            #expect(try replica.membership(of: venue.kioskA) == revoked.membership)
        }
    }
}
