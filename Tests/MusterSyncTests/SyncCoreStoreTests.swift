import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// The way to the store, decided in the core (the daemon's driver and the simulator only carry it
/// out): one group commit at a time, each request's share of the result, read-ahead back-pressure,
/// and the store's heads read before fork evidence goes on.
struct SyncCoreStoreTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    /// What arrives while a group is being stored waits and goes in the next group, every
    /// session's together, oldest first.
    @Test func requestsArrivingDuringACommitGoTogetherInTheNextGroup() throws {
        let (a, b, c) = (try Kit.id(), try Kit.id(), try Kit.id())
        let logA = Kit.log(3, key: try Kit.key())
        let logB = Kit.log(2, key: try Kit.key())
        var core = Kit.core(try Kit.id())
        core.open([a, b, c], now: t0)
        let first = try #require(core.handle(.frameReceived(from: a, .deltas([logA[0]])), now: t0).stores.first)
        #expect(first.deltas == [logA[0]])
        #expect(core.handle(.frameReceived(from: b, .deltas(logB)), now: t0).stores.isEmpty, "one group at a time")
        #expect(core.handle(.frameReceived(from: a, .deltas(Array(logA[1...]))), now: t0).stores.isEmpty)
        let next = core.handle(.stored(StoreResult(id: first.id, applied: first.deltas)), now: t0)
        let group = try #require(next.stores.first)
        #expect(next.stores.count == 1)
        #expect(group.deltas == logB + Array(logA[1...]))
        _ = core.handle(.stored(StoreResult(id: group.id, applied: group.deltas)), now: t0)
        #expect(core.heads[logA[0].author]?.seq == 3)
        #expect(core.heads[logB[0].author]?.seq == 2)
    }

    /// A group stops at the group-commit limit (at least one request), the rest follows.
    @Test func aGroupHoldsAtMostTheLimitAndAtLeastOneRequest() throws {
        let (a, b) = (try Kit.id(), try Kit.id())
        let log = Kit.log(6, key: try Kit.key())
        var core = Kit.core(try Kit.id()) { $0.groupCommitDeltas = 3 }
        core.open([a, b], now: t0)
        let first = try #require(core.handle(.frameReceived(from: a, .deltas([log[0]])), now: t0).stores.first)
        _ = core.handle(.frameReceived(from: a, .deltas(Array(log[1..<3]))), now: t0)
        _ = core.handle(.frameReceived(from: b, .deltas(Array(log[3..<6]))), now: t0)
        let second = try #require(
            core.handle(.stored(StoreResult(id: first.id, applied: first.deltas)), now: t0).stores.first
        )
        #expect(second.deltas == Array(log[1..<3]), "the next request would pass the limit")
        let third = try #require(
            core.handle(.stored(StoreResult(id: second.id, applied: second.deltas)), now: t0).stores.first
        )
        #expect(third.deltas == Array(log[3..<6]))
    }

    /// One result for a group, each request judged by its own share: the peer whose delta was
    /// stored gets it relayed past it, the one whose copy came second counts a copy, and a refusal
    /// naming a delta is the share of the peer that sent it.
    @Test func eachRequestHearsItsOwnShareOfTheGroupsResult() throws {
        let (a, b, c, d) = (try Kit.id(), try Kit.id(), try Kit.id(), try Kit.id())
        let log = Kit.log(3, key: try Kit.key())
        let other = Kit.log(4, key: try Kit.key())
        var core = Kit.core(try Kit.id())
        core.open([a, b, c], hello: [], now: t0)
        core.open([d], hello: [Kit.head(other)], now: t0)
        let busy = try #require(core.handle(.frameReceived(from: c, .deltas([log[0]])), now: t0).stores.first)
        _ = core.handle(.frameReceived(from: a, .deltas([log[1]])), now: t0)
        _ = core.handle(.frameReceived(from: b, .deltas([log[1]])), now: t0)
        _ = core.handle(.frameReceived(from: d, .deltas(Array(other[0..<2]))), now: t0)
        let group = try #require(
            core.handle(.stored(StoreResult(id: busy.id, applied: busy.deltas)), now: t0).stores.first
        )
        #expect(group.deltas == [log[1], log[1], other[0], other[1]])
        let result = StoreResult(
            id: group.id,
            applied: [log[1]],
            rejected: [DeltaRejection(.brokenChain, "does not follow", ref: other[0].ref)]
        )
        let out = core.handle(.stored(result), now: t0)
        #expect(core.tallies[b]?.copiesReceived == 1, "b's copy came second: a copy")
        #expect(core.tallies[a]?.copiesReceived == 0)
        #expect(out.messages(to: a).isEmpty, "not relayed back to the peer it came from")
        #expect(out.messages(to: c).contains(.deltas([log[1]])))
        #expect(core.tallies[d]?.copiesReceived == 0, "d's run was refused, not a copy of what we hold")
    }

    /// More than the read-ahead waiting for the store pauses reading the peer; it resumes once
    /// the stores bring it back under the limit.
    @Test func aPeerIsNotReadWhileTooManyOfItsDeltasWait() throws {
        let peer = try Kit.id()
        let log = Kit.log(5, key: try Kit.key())
        var core = Kit.core(try Kit.id()) { $0.readAheadDeltas = 2 }
        core.open([peer], now: t0)
        let first = core.handle(.frameReceived(from: peer, .deltas(Array(log[0..<2]))), now: t0)
        #expect(!first.contains(.pauseReading(peer)), "two waiting is the limit, not over it")
        let second = core.handle(.frameReceived(from: peer, .deltas([log[2]])), now: t0)
        #expect(second.contains(.pauseReading(peer)))
        let group = try #require(first.stores.first)
        let stored = core.handle(.stored(StoreResult(id: group.id, applied: group.deltas)), now: t0)
        #expect(stored.contains(.resumeReading(peer)))
        #expect(stored.stores.first?.deltas == [log[2]])
    }

    /// A store that cut a chain: the core asks for the store's heads first, and passes the fork
    /// evidence on once they are in (a peer is never sent evidence against heads we no longer hold).
    @Test func forkEvidenceGoesOnOnlyAfterTheStoresHeads() throws {
        let (a, b) = try SyncCoreForkTests.forkedLogs(3)
        let peer = try Kit.id()
        let other = try Kit.id()
        var core = Kit.core(try Kit.id(), heads: [Kit.head(a)])
        core.open([peer, other], hello: [], now: t0)
        let group = try #require(core.handle(.frameReceived(from: peer, .deltas([b[1]])), now: t0).stores.first)
        let evidence = [a[1], b[1]]
        let out = core.handle(.stored(StoreResult(id: group.id, applied: [], forkEvidence: evidence)), now: t0)
        #expect(out.contains(.readHeads))
        #expect(out.messages(to: other).isEmpty, "no evidence before the heads")
        let heads = core.handle(.storeHeads([Kit.head(Array(a.prefix(1)))]), now: t0)
        #expect(heads.messages(to: other).contains(.deltas(evidence)))
        #expect(core.heads[a[0].author]?.seq == 1)
    }

    /// Every session that opens asks for what the store knows of forks.
    @Test func aNewSessionAsksForTheStoresForkEvidence() throws {
        var core = Kit.core(try Kit.id())
        let out = core.handle(.sessionOpened(peer: try Kit.id(), initiator: core.me), now: t0)
        #expect(out.contains(.readForkEvidence))
    }

    /// A store that failed as a whole: nothing is stored, and the next group still goes.
    @Test func aFailedGroupLeavesNothingWaitingForever() throws {
        let (a, b) = (try Kit.id(), try Kit.id())
        let log = Kit.log(2, key: try Kit.key())
        var core = Kit.core(try Kit.id())
        core.open([a, b], now: t0)
        let first = try #require(core.handle(.frameReceived(from: a, .deltas([log[0]])), now: t0).stores.first)
        _ = core.handle(.frameReceived(from: b, .deltas([log[0]])), now: t0)
        let out = core.handle(.stored(.failed(first.id)), now: t0)
        #expect(core.heads[log[0].author] == nil)
        #expect(out.stores.first?.deltas == [log[0]])
    }
}
