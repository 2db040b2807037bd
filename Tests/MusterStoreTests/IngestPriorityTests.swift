import Foundation
import GRDB
import MusterCore
import MusterCrypto
import MusterTestSupport
import Synchronization
import Testing

@testable import MusterRules
@testable import MusterStore

/// A check-in at the door waits for SQLite's one writer. While one waits, a group of peers' deltas
/// commits at the end of each author's run (``Replica/writeForPerson(_:)``); what the replica holds
/// afterwards must be what one transaction would have stored, and a part that fails must leave the
/// parts before it stored and reported.
@Suite struct IngestPriorityTests {
    /// Counts the commits on the writer's connection.
    final class CommitCounter: TransactionObserver, Sendable {
        let commits = Mutex(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    /// Three check-ins by each kiosk, interleaved as they arrive from two peers: two author runs.
    static func interleaved(_ venue: TestVenue) throws -> [SignedDelta] {
        let a = try RosterTests.checkIns(venue, key: venue.kioskAKey, count: 3)
        let b = try RosterTests.checkIns(venue, key: venue.kioskBKey, count: 3)
        return zip(a, b).flatMap { [$0, $1] }
    }

    static func counting(_ replica: Replica) throws -> CommitCounter {
        let counter = CommitCounter()
        try replica.writer().writeWithoutTransaction { db in
            db.add(transactionObserver: counter, extent: .databaseLifetime)
        }
        return counter
    }

    @Test func aWaitingPersonSplitsAGroupAtItsAuthorRunsAndLosesNothing() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let deltas = try Self.interleaved(venue)
            let alone = try venue.openReplica(in: dir, named: "alone")
            let split = try venue.openReplica(in: dir, named: "split")
            let aloneCommits = try Self.counting(alone)
            let splitCommits = try Self.counting(split)

            let whole = try alone.ingestAtTestTime(deltas)
            split.personsWaiting.add(1, ordering: .relaxed)
            let parts = try split.ingestAtTestTime(deltas)
            split.personsWaiting.subtract(1, ordering: .relaxed)

            #expect(aloneCommits.commits.withLock { $0 } == 1)
            #expect(splitCommits.commits.withLock { $0 } == 2)
            #expect(parts.applied == whole.applied)
            #expect(parts.applied.count == 6)
            #expect(parts.stoppedBy == nil)
            #expect(try split.digest() == (try alone.digest()))
            #expect(try split.head(of: venue.kioskB).seq == 3)
        }
    }

    @Test func anOrganizersBatchStaysOneTransactionWhileAPersonWaits() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir)
            let commits = try Self.counting(replica)
            replica.personsWaiting.add(1, ordering: .relaxed)
            defer { replica.personsWaiting.subtract(1, ordering: .relaxed) }
            // The atomic batch queues as a person's write itself; the count it adds is gone once it
            // runs, so only the test's own waiting person remains.
            _ = try replica.ingestAtTestTime(try Self.interleaved(venue), atomic: true)
            #expect(commits.commits.withLock { $0 } == 1)
            #expect(try replica.head(of: venue.kioskA).seq == 3)
        }
    }

    @Test func aPartThatFailsKeepsThePartsBeforeItStoredAndReported() throws {
        try withTemporaryDirectory { dir in
            let venue = try TestVenue()
            let replica = try venue.openReplica(in: dir)
            // Kiosk B's deltas cannot be written (as a full disk would refuse them).
            try replica.writer().writeWithoutTransaction { db in
                try db.execute(
                    sql: """
                        CREATE TEMP TRIGGER refuse_b BEFORE INSERT ON main.delta
                        WHEN NEW.author = X'\(Hex.encode(venue.kioskB.bytes))'
                        BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                        """
                )
            }
            let deltas = try Self.interleaved(venue)

            // One transaction: the failure takes everything back, and the caller hears it.
            #expect(throws: ReplicaError.self) { try replica.ingestAtTestTime(deltas) }
            #expect(try replica.head(of: venue.kioskA).seq == 0)

            // In parts: kiosk A's run was committed before kiosk B's failed.
            replica.personsWaiting.add(1, ordering: .relaxed)
            defer { replica.personsWaiting.subtract(1, ordering: .relaxed) }
            let report = try replica.ingestAtTestTime(deltas)
            #expect(report.stoppedBy != nil)
            #expect(report.applied.map(\.author) == [venue.kioskA, venue.kioskA, venue.kioskA])
            #expect(try replica.head(of: venue.kioskA).seq == 3)
            #expect(try replica.head(of: venue.kioskB).seq == 0)
        }
    }
}
