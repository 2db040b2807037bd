import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// The organizer's name search: prefix of first or last name, case and accents ignored, newest
/// name wins, bounded results.
@Suite("Replica name search")
struct ReplicaSearchTests {
    static let c = ScenarioLog.campaign

    func search(_ replica: Replica, _ text: String, limit: Int = 20) throws -> [String] {
        try replica.view { try $0.search(campaignID: Self.c, name: text, limit: limit) }.map(\.key)
    }

    @Test func lastNamePrefixFindsEveryMatchInNameOrder() throws {
        try withScenarioReplica { (replica, _) throws in
            let expected = [1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map(ScenarioLog.key)
            #expect(try search(replica, "last1") == expected)
            #expect(try search(replica, "  LAST1 ") == expected)
            let three = try search(replica, "last", limit: 3)
            #expect(three == [0, 1, 10].map(ScenarioLog.key), "\(three)")
        }
    }

    @Test func firstNameAndTwoWordsNarrowTheResult() throws {
        try withScenarioReplica { (replica, _) throws in
            #expect(try search(replica, "first4") == [ScenarioLog.key(4)])
            #expect(try search(replica, "First4 Last4") == [ScenarioLog.key(4)])
            #expect(try search(replica, "last4 first4") == [ScenarioLog.key(4)])
            #expect(try search(replica, "first1 last2").isEmpty)
            #expect(try search(replica, "nobody").isEmpty)
            #expect(try search(replica, "   ").isEmpty)
        }
    }

    @Test func theNewestNameIsTheOneFound() throws {
        try withScenarioReplica { (replica, _) throws in
            // #20 registered as a walk-in under another name after the import: the import's name
            // stands (a walk-in never overwrites an imported person, issue 13).
            #expect(try search(replica, "walkin").isEmpty)
            #expect(try search(replica, "last20") == [ScenarioLog.key(20)])
            // The new walk-in registered as "New" and later as "Newton".
            #expect(try search(replica, "newton") == [ScenarioLog.newWalkInEmail])
            #expect(try search(replica, "new person") == [ScenarioLog.newWalkInEmail])
        }
    }

    @Test func accentsCaseAndOtherCampaignsAreIgnored() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            var signer = venue.signer(venue.organizerKey)
            let bodies: [DeltaBody] = [
                .campaign(CampaignPayload(campaignID: "gala", name: "Gala")),
                Bodies.attendee(
                    "gala",
                    email: "emile@example.com",
                    first: "Émile",
                    last: "Zola",
                    company: "",
                    ticket: nil
                ),
                Bodies.attendee(
                    "other",
                    email: "zoe@example.com",
                    first: "Zoë",
                    last: "Zola",
                    company: "",
                    ticket: nil
                ),
            ]
            let deltas = try bodies.enumerated().map { index, body in
                try signer.sign(body, hlc: HLC(physicalMillis: TestTime.start + UInt64(index), logical: 0))
            }
            let replica = try venue.openReplica(in: dir)
            #expect(try replica.ingestAtTestTime(deltas).rejected.isEmpty)
            for text in ["emile", "ÉMILE", "zo", "Emile  Zola", "zola é"] {
                let found = try replica.view { try $0.search(campaignID: "gala", name: text, limit: 20) }
                #expect(found.map(\.key) == ["emile@example.com"], "\(text)")
                #expect(found.first?.firstName == "Émile")
            }
            #expect(try replica.view { try $0.search(campaignID: "gala", name: "zola x", limit: 20) }.isEmpty)
        }
    }

    @Test func aReplicaFromBeforeNameSearchIsBackfilledWhenOpened() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let path = dir + "/old.sqlite"
            let old = try DatabaseQueue(path: path)
            try ReplicaSchema.migrator.migrate(old, upTo: "v2-roster")
            // The log holds the import, and the old state materialized from it (later migrations
            // rebuild the state from the log).
            var organizer = venue.signer(venue.organizerKey)
            let delta = try organizer.sign(
                Bodies.attendee(
                    "gala",
                    email: "ada@example.com",
                    first: "Ada",
                    last: "Lovelace",
                    company: "",
                    ticket: nil
                ),
                hlc: HLC(physicalMillis: 1, logical: 0)
            )
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO delta(author, seq, kind, hlc, hash, envelope, signature, received_at, sig_verified)
                        VALUES (?, 1, ?, ?, ?, ?, ?, 0, 1)
                        """,
                    arguments: [
                        Data(venue.organizer.bytes), Int64(DeltaKind.attendee.rawValue), Int64(delta.hlc.packed),
                        Data(organizer.head.hash), Data(delta.envelope), Data(delta.signature),
                    ]
                )
                try db.execute(
                    sql: """
                        INSERT INTO attendee(campaign_id, key, email, first_name, last_name, company, p_hlc, p_author,
                            p_seq, admitted, imported, walk_in)
                        VALUES ('gala', 'ada@example.com', 'ada@example.com', 'Ada', 'Lovelace', '', 1, x'01', 1, 1, 1, 0)
                        """
                )
            }
            try old.close()
            let replica = try Replica.open(path: path, policy: venue.policy)
            let found = try replica.view { try $0.search(campaignID: "gala", name: "LOVE", limit: 20) }
            #expect(found.map(\.key) == ["ada@example.com"])
        }
    }
}
