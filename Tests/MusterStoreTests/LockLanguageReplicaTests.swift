import Foundation
import GRDB
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The lock's language as the replica materializes it (issue 14): the newest lock's, nil when it sets
/// none, and part of the digest only when some lock sets one.
@Suite("Replica: the lock's language")
struct LockLanguageReplicaTests {
    /// The campaign, then one lock per entry of `languages` (versions 1, 2, …), signed by the organizer.
    static func locks(_ venue: TestVenue, _ languages: [String?]) throws -> [SignedDelta] {
        var organizer = venue.signer(venue.organizerKey)
        var deltas = [
            try organizer.sign(
                .campaign(CampaignPayload(campaignID: "camp", name: "Camp")),
                hlc: HLC(physicalMillis: TestTime.start, logical: 0)
            )
        ]
        for (index, language) in languages.enumerated() {
            let lock = LockPayload(
                version: UInt64(index + 1),
                campaignID: "camp",
                checkInStatus: "Attended",
                language: language
            )
            deltas.append(
                try organizer.sign(
                    .lock(lock),
                    hlc: HLC(physicalMillis: TestTime.start + UInt64(index + 1), logical: 0)
                )
            )
        }
        return deltas
    }

    @Test func theNewestLocksLanguageIsMaterialized() throws {
        try withTemporaryDirectory { directory in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: directory)
            let deltas = try Self.locks(venue, [nil, "de", nil])
            try replica.ingestAtTestTime(Array(deltas.prefix(2)))
            #expect(try replica.view { try $0.lock() }?.language == nil)
            try replica.ingestAtTestTime([deltas[2]])
            #expect(try replica.view { try $0.lock() }?.language == "de")
            try replica.ingestAtTestTime([deltas[3]])
            #expect(try replica.view { try $0.lock() }?.language == nil, "a newer lock without one clears it")
        }
    }

    @Test func theLanguageIsInTheDigestOnlyWhenSet() throws {
        try withTemporaryDirectory { directory in
            let venue = try TestVenue()
            let withLanguage = try venue.openReplica(in: directory, named: "a")
            let without = try venue.openReplica(in: directory, named: "b")
            // Same author, seq and fields but the language: the `lock` digest rows are the same.
            try withLanguage.ingestAtTestTime(try Self.locks(venue, ["nl"]))
            try without.ingestAtTestTime(try Self.locks(venue, [nil]))
            #expect(try withLanguage.digest() != without.digest())
            // With no language anywhere, the language table is not hashed at all: the digest is the one
            // computed from the other tables alone, as a kiosk before this field computes it.
            let hashed = try without.read { db in
                try Row.fetchOne(db, sql: "SELECT language FROM lock_state WHERE language IS NOT NULL")
            }
            #expect(hashed == nil)
            // Rebuilding from the log gives the same state and digest.
            let before = try withLanguage.digest()
            try withLanguage.writer().write { db in try Materializer.rebuild(db: db) }
            #expect(try withLanguage.digest() == before)
            #expect(try withLanguage.view { try $0.lock() }?.language == "nl")
        }
    }
}
