import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Testing

@testable import MusterRules
@testable import MusterStore

/// Local writes, reopening from disk, read-only access and SQLite hardening.
@Suite("Replica local writes and storage")
struct ReplicaLocalTests {
    static let campaign = ScenarioLog.campaign

    /// "Check in unless already checked in", decided on the write transaction's snapshot.
    static func checkInOnce(_ key: String) -> (ReplicaView) throws -> LocalWrite<String> {
        { view in
            let arrivals = try view.presences(campaignID: campaign, attendeeKey: key).filter(\.isArrival)
            if let first = arrivals.first { return .answer("already checked in at \(first.kioskName)") }
            return .append(Bodies.checkIn(campaign, key, kiosk: "Kiosk A"), answer: "welcome")
        }
    }

    @Test func answerAppendsNothing() throws {
        try withTestReplica { (venue, replica, dir) throws in
            let empty = try replica.digest()
            var hlcCalls = 0
            let (result, delta) = try replica.appendLocal(
                keyPair: venue.kioskAKey,
                nowMillis: TestTime.start,
                nextHLC: { _ in
                    hlcCalls += 1
                    return HLC(physicalMillis: TestTime.start, logical: 0)
                }
            ) { _ in LocalWrite<Int>.answer(42) }
            #expect(result == 42)
            #expect(delta == nil)
            #expect(hlcCalls == 0)
            #expect(try replica.head(of: venue.kioskA).seq == 0)
            #expect(try replica.heads().isEmpty)
            #expect(try replica.digest() == empty)
        }
    }

    @Test func appendNumbersChainsAndPersists() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let path = dir + "/kiosk-a.sqlite"
            var clock = HybridClock()
            var now = TestTime.start
            var appended: [SignedDelta] = []
            let digest: String
            let locked = venue.lockDeltas(Self.campaign)
            do {
                let replica = try venue.openReplica(in: dir, named: "kiosk-a")
                try replica.ingestAtTestTime(locked)
                for (index, key) in ["ada@example.com", "grace@example.com", "alan@example.com"].enumerated() {
                    now += 1_000
                    let (result, delta) = try replica.appendLocal(
                        keyPair: venue.kioskAKey,
                        nowMillis: now,
                        nextHLC: { _ in clock.tick(nowMillis: now) },
                        Self.checkInOnce(key)
                    )
                    #expect(result == "welcome")
                    let stored = try #require(delta)
                    #expect(stored.seq == UInt64(index + 1))
                    #expect(stored.author == venue.kioskA)
                    #expect(stored.venue == venue.venue)
                    #expect(stored.hlc == clock.last)
                    appended.append(stored)
                }
                // Deciding on the snapshot: the second attempt for Ada appends nothing.
                let (again, none) = try replica.appendLocal(
                    keyPair: venue.kioskAKey,
                    nowMillis: now,
                    nextHLC: { _ in clock.tick(nowMillis: now) },
                    Self.checkInOnce("ada@example.com")
                )
                #expect(again == "already checked in at Kiosk A")
                #expect(none == nil)

                let stored = try replica.deltas(of: venue.kioskA)
                #expect(stored == appended)
                #expect(stored.map(\.seq) == [1, 2, 3])
                #expect(zip(stored, stored.dropFirst()).allSatisfy { $0.hlc < $1.hlc })
                let hashes = try ChainVerifier.verify(run: stored, after: .empty(venue.kioskA))
                #expect(hashes.last == (try replica.head(of: venue.kioskA)).hash)
                #expect(stored[0].prev == Delta.genesisPrev)
                // Every local delta carries its own valid signature, not only the newest.
                for delta in stored {
                    #expect(venue.kioskAKey.publicKey.isValidSignature(delta.signature, for: delta.envelope))
                }
                #expect(try replica.status().checkedIn == 3)
                digest = try replica.digest()
            }

            // Reopened from disk: same state, and the log continues where it stopped.
            let reopened = try Replica.open(path: path, policy: venue.policy)
            #expect(try reopened.digest() == digest)
            #expect(try reopened.deltas(of: venue.kioskA) == appended)
            #expect(try reopened.newestHLC(author: venue.kioskA) == appended.last?.hlc)
            now += 1_000
            let (_, fourth) = try reopened.appendLocal(
                keyPair: venue.kioskAKey,
                nowMillis: now,
                nextHLC: { _ in clock.tick(nowMillis: now) },
                Self.checkInOnce("edsger@example.com")
            )
            #expect(fourth?.seq == 4)
            #expect(fourth?.prev == Blake2b.hash256(appended[2].envelope))
            #expect(try reopened.digest() != digest)

            // Another replica that receives the kiosk's log by sync reaches the same state.
            let peer = try venue.openReplica(in: dir, named: "peer")
            try peer.ingestAtTestTime(locked)
            let report = try peer.ingestAtTestTime(try reopened.deltas(of: venue.kioskA))
            #expect(report.applied.count == 4)
            #expect(try peer.digest() == (try reopened.digest()))
        }
    }

    @Test func readOnlyReplicaReadsButCannotWrite() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let log = ScenarioLog(venue: venue)
            let path = dir + "/replica.sqlite"
            let digest: String
            do {
                let writer = try venue.openReplica(in: dir)
                try writer.ingestAtTestTime(log.all, nowMillis: log.now)
                digest = try writer.digest()

                // While the daemon's writer is open (WAL), `muster` reads the same state.
                let reader = try Replica.openReadOnly(path: path, policy: venue.policy)
                #expect(try reader.digest() == digest)
                #expect(try reader.status().checkedIn == ScenarioLog.expectedCheckedIn)
            }

            // And after the writer has closed.
            let reader = try Replica.openReadOnly(path: path, policy: venue.policy)
            #expect(try reader.digest() == digest)
            let ada = try reader.view { try $0.lookup(campaignID: Self.campaign, query: ScenarioLog.email(0)) }
            #expect(ada?.firstName == "First0")

            let appendError = thrownError { () throws(ReplicaError) in
                try reader.appendAtTestStart(venue, Self.checkInOnce("new@example.com"))
            }
            #expect(appendError?.code == .sqlite)
            var organizer = venue.signer(
                venue.organizerKey,
                head: try reader.head(of: venue.organizer)
            )
            let more = try organizer.sign(
                .lock(LockPayload(version: 10, campaignID: nil)),
                hlc: HLC(packed: log.all.last!.hlc.packed + 1)
            )
            #expect(thrownError { () throws(ReplicaError) in try reader.ingestAtTestTime([more]) }?.code == .sqlite)
            #expect(try reader.digest() == digest)
        }
    }

    @Test func readOnlyOpenOfAMissingReplicaFails() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let error = thrownError { () throws(ReplicaError) in
                try Replica.openReadOnly(path: dir + "/nope.sqlite", policy: venue.policy)
            }
            #expect(error?.code == .open)
            #expect(!FileManager.default.fileExists(atPath: dir + "/nope.sqlite"))
        }
    }

    @Test func kioskCannotAppendAnOrganizerKindLocally() throws {
        try withTestReplica { (venue, replica, dir) throws in
            let error = thrownError { () throws(ReplicaError) in
                try replica.appendAtTestStart(venue) { _ in
                    LocalWrite.append(.lock(LockPayload(version: 1, campaignID: "c")), answer: ())
                }
            }
            #expect(error?.code == .notAuthorized)
            #expect(try replica.heads().isEmpty)
            #expect(try replica.status().lock == nil)
        }
    }

    struct DecideFailed: Error {}

    @Test func throwingDecisionAppendsNothing() throws {
        try withTestReplica { (venue, replica, dir) throws in
            let error = thrownError { () throws(ReplicaError) in
                try replica.appendAtTestStart(venue) { _ -> LocalWrite<Void> in throw DecideFailed() }
            }
            #expect(error != nil)
            #expect(try replica.heads().isEmpty)
        }
    }

    @Test func everyConnectionIsHardened() throws {
        try withTemporaryDirectory { (dir) throws in
            let venue = try TestVenue()
            let path = dir + "/replica.sqlite"
            let replica = try Replica.open(path: path, policy: venue.policy)
            #expect(try replica.reader.read { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") } == 0)
            let pool = try #require(replica.pool)
            #expect(try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") } == 0)
            // Acknowledged writes must survive a power cut: synchronous=FULL on the writer connection.
            let synchronous = try pool.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
            #expect(synchronous == 2)  // 2 = FULL
            #expect(try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
            #expect(try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)

            // Defensive mode: even with writable_schema on, the schema cannot be edited directly.
            #expect(throws: (any Error).self) {
                try pool.write { db in
                    try db.execute(sql: "PRAGMA writable_schema = ON")
                    defer { try? db.execute(sql: "PRAGMA writable_schema = OFF") }
                    try db.execute(sql: "UPDATE sqlite_schema SET sql = sql WHERE name = 'meta'")
                }
            }
            let readOnly = try Replica.openReadOnly(path: path, policy: venue.policy)
            #expect(try readOnly.reader.read { db in try Int.fetchOne(db, sql: "PRAGMA trusted_schema") } == 0)
        }
    }
}
