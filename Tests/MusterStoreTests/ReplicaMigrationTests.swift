import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// A replica written by an older version is opened by this one: the log is kept and the state made
/// again from it, equal to what a replica that took the same deltas fresh holds.
@Suite("Replica migrations")
struct ReplicaMigrationTests {
    /// The log as the schema before v10 stored it (each delta's hash in a column of its own), with
    /// no derived state: v10 makes the attendee table again and rebuilds every derived table.
    @Test func aReplicaOfTheFormerSchemaHasTheFreshReplicasStateAndDigest() throws {
        try withScenarioLog { (log, fresh, dir) throws in
            #expect(try fresh.ingestAtTestTime(log.all, nowMillis: log.now).rejected.isEmpty)
            let path = dir + "/former.sqlite"
            let former = try DatabaseQueue(path: path)
            try ReplicaSchema.migrator.migrate(former, upTo: "v9-set-aside")
            try former.write { db in
                for delta in log.all {
                    try db.execute(
                        sql: """
                            INSERT INTO delta(author, seq, kind, hlc, hash, envelope, signature, received_at, sig_verified)
                            VALUES (?, ?, ?, ?, ?, ?, ?, 0, 1)
                            """,
                        arguments: [
                            Data(delta.author.bytes), Int64(delta.seq), Int64(delta.rawKind),
                            Int64(delta.hlc.packed), Data(Blake2b.hash256(delta.envelope)), Data(delta.envelope),
                            Data(delta.signature),
                        ]
                    )
                }
            }
            try former.close()
            let migrated = try Replica.open(path: path, policy: log.venue.policy)
            #expect(try migrated.digest() == fresh.digest())
            let columns = try migrated.read { db in try db.columns(in: "delta").map(\.name) }
            #expect(!columns.contains("hash"))
            // Every attendee reads the same as in the fresh replica.
            for campaign in [ScenarioLog.campaign, ScenarioLog.otherCampaign] {
                let person = { (record: AttendeeRecord) in
                    [record.key, record.email, record.firstName, record.lastName, record.company, record.ticket ?? ""]
                }
                let expected = try fresh.view { try $0.attendees(campaignID: campaign) }.map(person)
                #expect(try migrated.view { try $0.attendees(campaignID: campaign) }.map(person) == expected)
                #expect(!expected.isEmpty)
            }
        }
    }

    /// The attendee row keeps the email only where it is not the key; every reader sees it whole.
    @Test func theEmailIsStoredOnlyWhereItIsNotTheKey() throws {
        try withTestReplica { (venue, replica, _) throws in
            var signer = venue.signer(venue.organizerKey)
            let bodies: [DeltaBody] = [
                .campaign(CampaignPayload(campaignID: "gala", name: "Gala")),
                Bodies.attendee("gala", email: "Ada@Example.com", first: "Ada", last: "L", company: "", ticket: nil),
                Bodies.attendee(
                    "gala",
                    email: "grace@example.com",
                    first: "Grace",
                    last: "H",
                    company: "",
                    ticket: nil
                ),
            ]
            let deltas = try signer.sign(bodies, fromMillis: TestTime.start)
            #expect(try replica.ingestAtTestTime(deltas).rejected.isEmpty)
            let stored = try replica.read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, email FROM attendee_row").map {
                        (($0["key"] as String), ($0["email"] as String?))
                    }
                )
            }
            #expect(stored == ["ada@example.com": "Ada@Example.com", "grace@example.com": nil])
            let read = try replica.view { try $0.attendees(campaignID: "gala") }.map(\.email)
            #expect(Set(read) == ["Ada@Example.com", "grace@example.com"])
        }
    }
}
