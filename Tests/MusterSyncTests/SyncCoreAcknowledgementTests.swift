import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// `ack_copies` in the protocol: a kiosk that committed a peer's own deltas tells that peer at once
/// (a heads message naming only the peer's chain), and the peer takes it as an acknowledgement, not as
/// its whole state.
struct SyncCoreAcknowledgementTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    /// The author's deltas, committed: the author hears our head of its chain, and only it.
    @Test func anAuthorsDeltasCommittedAreAcknowledgedToIt() throws {
        let authorKey = try Kit.key()
        let author = AuthorID(authorKey.publicKey)
        let other = try Kit.id()
        let log = Kit.log(3, key: authorKey)
        var core = Kit.core(try Kit.id())
        core.open([author, other], hello: [], now: t0)
        let group = try #require(core.handle(.frameReceived(from: author, .deltas(log)), now: t0).stores.first)
        let out = core.handle(.stored(StoreResult(id: group.id, applied: group.deltas)), now: t0)
        #expect(out.messages(to: author) == [.heads([Kit.head(log)])])
        #expect(!out.messages(to: other).contains(.heads([Kit.head(log)])), "only the author is acknowledged")
    }

    /// Deltas relayed from another author, a store that failed, and a run the store refused past its
    /// first delta acknowledge nothing beyond what is committed.
    @Test func nothingUncommittedIsAcknowledged() throws {
        let authorKey = try Kit.key()
        let author = AuthorID(authorKey.publicKey)
        let relay = try Kit.id()
        let log = Kit.log(3, key: authorKey)
        var core = Kit.core(try Kit.id())
        core.open([author, relay], hello: [], now: t0)

        let relayed = try #require(core.handle(.frameReceived(from: relay, .deltas([log[0]])), now: t0).stores.first)
        var out = core.handle(.stored(StoreResult(id: relayed.id, applied: relayed.deltas)), now: t0)
        #expect(out.messages(to: relay).allSatisfy { if case .heads = $0 { false } else { true } })

        let failed = try #require(core.handle(.frameReceived(from: author, .deltas([log[1]])), now: t0).stores.first)
        out = core.handle(.stored(.failed(failed.id)), now: t0)
        #expect(out.messages(to: author).allSatisfy { if case .heads = $0 { false } else { true } })

        let partial = try #require(
            core.handle(.frameReceived(from: author, .deltas(Array(log[1...]))), now: t0).stores.first
        )
        out = core.handle(
            .stored(
                StoreResult(
                    id: partial.id,
                    applied: [log[1]],
                    rejected: [DeltaRejection(.badSignature, "bad", ref: log[2].ref)]
                )
            ),
            now: t0
        )
        #expect(
            out.messages(to: author).allSatisfy { if case .heads = $0 { false } else { true } },
            "seq 3 was refused: the head stands at 2, short of what was sent"
        )
    }

    /// An acknowledgement moves what the peer is known to hold of our chain and leaves the rest of
    /// its heads as they were; ordinary heads still replace them.
    @Test func anAcknowledgementIsMergedNotTakenAsTheWholeState() throws {
        let meKey = try Kit.key()
        let me = AuthorID(meKey.publicKey)
        let peer = try Kit.id()
        let others = Kit.log(5, key: try Kit.key())
        let ours = Kit.log(4, key: meKey)
        var core = Kit.core(me)
        core.open([peer], hello: [Kit.head(others)], now: t0)
        _ = core.handle(.frameReceived(from: peer, .heads([Kit.head(ours)])), now: t0)
        #expect(core.sessions[peer]?.peerHas == [others[0].author: 5, me: 4])
        #expect(SyncCore.isAcknowledgement([Kit.head(ours)], to: me))
        #expect(!SyncCore.isAcknowledgement([Kit.head(others)], to: me))
        #expect(!SyncCore.isAcknowledgement([Kit.head(ours), Kit.head(others)], to: me))

        _ = core.handle(.frameReceived(from: peer, .heads([Kit.head(others)])), now: t0)
        #expect(core.sessions[peer]?.peerHas == [others[0].author: 5], "anti-entropy heads are the whole state")
    }
}
