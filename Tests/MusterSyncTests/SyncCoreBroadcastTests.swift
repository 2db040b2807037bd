import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// Beyond the full mesh: Plumtree's eager tree with lazy repair, and HyParView's bounded views.
struct SyncCoreBroadcastTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    /// Two peers, and a third kiosk's log of three notes that they announce or send.
    static func twoPeersAndALog() throws -> (AuthorID, AuthorID, [SignedDelta]) {
        (try Kit.id(), try Kit.id(), Kit.log(3, key: try Kit.key()))
    }

    /// A core past its full-mesh threshold (2 kiosks), in session with `peers`.
    func partialCore(_ me: AuthorID, peers: [AuthorID], heads: [AuthorHead] = []) -> SyncCore {
        var core = Kit.core(me, heads: heads) {
            $0.fullMeshThreshold = 2
            $0.maxSessions = 3
            $0.activeView = 2
        }
        core.open(peers, hello: [], now: t0)
        return core
    }

    /// An eager copy of a delta we hold prunes the link it came on: that peer turns lazy and gets
    /// announcements instead of deltas.
    @Test func anEagerCopyPrunesItsLink() throws {
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        let log = Kit.log(2, key: try Kit.key())
        var core = partialCore(me, peers: [p1, p2])
        #expect(!core.isFullMesh)
        let request = try #require(core.handle(.frameReceived(from: p1, .deltas([log[0]])), now: t0).stores.first)
        let linger = core.configuration.eagerLinger
        let relayed = core.handle(.stored(StoreResult(id: request.id, applied: request.deltas)), now: t0)
        #expect(relayed.messages(to: p2).isEmpty)
        #expect(relayed.contains(.setTimer(.eagerPush, at: t0 + linger)))
        let pushed = core.handle(.timerFired(.eagerPush), now: t0 + linger)
        #expect(pushed.messages(to: p2) == [.deltas([log[0]])])
        let copy = core.handle(.frameReceived(from: p2, .deltas([log[0]])), now: t0 + linger)
        #expect(copy.messages(to: p2) == [.prune])
        #expect(core.sessions[p2]?.eager == false)
        // The next delta goes to p2 as an announcement, after the lazy interval.
        let local = Kit.log(1, key: try Kit.key())
        let t1 = t0 + linger
        let push = core.handle(.localCommit(local), now: t1)
        #expect(push.messages(to: p2).isEmpty)
        #expect(core.handle(.timerFired(.eagerPush), now: t1 + linger).messages(to: p1) == [.deltas(local)])
        let flush = core.handle(.timerFired(.lazyPush), now: t1 + core.configuration.lazyInterval)
        #expect(flush.messages(to: p2) == [.ihave([SeqRange(author: local[0].author, after: 0, through: 1)])])
    }

    /// Beyond the full mesh, eager pushes wait ``SyncCore/Configuration/eagerLinger`` and go out as one
    /// message; what the peer sent us meanwhile (it had them from elsewhere) is not sent back.
    @Test func eagerPushesLingerAndSkipWhatThePeerSentMeanwhile() throws {
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        let log = Kit.log(3, key: try Kit.key())
        var core = partialCore(me, peers: [p1, p2])
        let linger = core.configuration.eagerLinger
        #expect(linger > .zero)
        var queued: [SyncOutput] = []
        for delta in log {
            queued += core.handle(.localCommit([delta]), now: t0)
        }
        #expect(queued.messages(to: p1).isEmpty && queued.messages(to: p2).isEmpty)
        // p2 got the first delta elsewhere and announces it: it holds it, so it is not sent to it.
        let author = log[0].author
        _ = core.handle(.frameReceived(from: p2, .ihave([SeqRange(author: author, after: 0, through: 1)])), now: t0)
        let early = core.handle(.timerFired(.eagerPush), now: t0 + linger / 2)
        #expect(early.messages(to: p1).isEmpty)
        let flush = core.handle(.timerFired(.eagerPush), now: t0 + linger)
        #expect(flush.messages(to: p1) == [.deltas(log)])
        #expect(flush.messages(to: p2) == [.deltas(Array(log[1...]))])
    }

    /// A peer pruned while deltas waited for it gets them announced instead.
    @Test func aPeerPrunedDuringTheLingerGetsAnnouncements() throws {
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        let log = Kit.log(1, key: try Kit.key())
        var core = partialCore(me, peers: [p1, p2])
        _ = core.handle(.localCommit(log), now: t0)
        _ = core.handle(.frameReceived(from: p2, .prune), now: t0)
        #expect(core.sessions[p2]?.eager == false)
        let flush = core.handle(.timerFired(.eagerPush), now: t0 + core.configuration.eagerLinger)
        #expect(flush.messages(to: p2).isEmpty)
        #expect(flush.messages(to: p1) == [.deltas(log)])
        let lazyAt = t0 + core.configuration.eagerLinger + core.configuration.lazyInterval
        let lazy = core.handle(.timerFired(.lazyPush), now: lazyAt)
        #expect(lazy.messages(to: p2) == [.ihave([SeqRange(author: log[0].author, after: 0, through: 1)])])
    }

    /// On a full mesh nothing is pruned: every writer reaches every kiosk in one hop.
    @Test func aFullMeshNeverPrunes() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(1, key: try Kit.key())
        var core = Kit.core(me)
        core.open([peer], now: t0)
        _ = core.handle(.localCommit(log), now: t0)
        let copy = core.handle(.frameReceived(from: peer, .deltas(log)), now: t0)
        #expect(copy.messages(to: peer).isEmpty)
        #expect(core.sessions[peer]?.eager == true)
    }

    /// An announcement not followed by the delta grafts the announcer, which is asked for the range;
    /// a delta that arrives in time cancels the graft.
    @Test func aMissingAnnouncedDeltaGraftsTheAnnouncer() throws {
        let (p1, p2, log) = try Self.twoPeersAndALog()
        let author = log[0].author
        var core = partialCore(try Kit.id(), peers: [p1, p2])
        let range = SeqRange(author: author, after: 0, through: 1)
        _ = core.handle(.frameReceived(from: p2, .ihave([range])), now: t0)
        let early = core.handle(.timerFired(.graft), now: t0 + .milliseconds(1))
        #expect(early.messages(to: p2).isEmpty)
        let out = core.handle(.timerFired(.graft), now: t0 + core.configuration.graftTimeout)
        #expect(out.messages(to: p2) == [.graft([range])])
        #expect(core.sessions[p2]?.eager == true)
        #expect(core.repairs[author]?.peer == p2)
        // In time: no graft.
        let later = t0 + .seconds(1)
        _ = core.handle(.frameReceived(from: p2, .ihave([SeqRange(author: author, after: 1, through: 2)])), now: later)
        let request = try #require(
            core.handle(.frameReceived(from: p1, .deltas([log[0], log[1]])), now: later).stores.first
        )
        _ = core.handle(.stored(StoreResult(id: request.id, applied: request.deltas)), now: later)
        let none = core.handle(.timerFired(.graft), now: later + core.configuration.graftTimeout)
        #expect(none.messages(to: p2).isEmpty)
    }

    /// Two announcers, the first with less: the graft goes to the one holding the whole announced
    /// range, for all of it. Grafting the first asked it for a delta it did not have, and the
    /// simulator saw the rest wait seconds for the repair timeout (ff72f6f; BENCHMARKS.md, "What each
    /// optimisation gained").
    @Test func aGraftGoesToTheAnnouncerThatHoldsTheMost() throws {
        let (p1, p2, log) = try Self.twoPeersAndALog()
        let author = log[0].author
        var core = partialCore(try Kit.id(), peers: [p1, p2])
        _ = core.handle(.frameReceived(from: p1, .ihave([SeqRange(author: author, after: 0, through: 1)])), now: t0)
        _ = core.handle(.frameReceived(from: p2, .ihave([SeqRange(author: author, after: 0, through: 3)])), now: t0)
        let out = core.handle(.timerFired(.graft), now: t0 + core.configuration.graftTimeout)
        #expect(out.messages(to: p1).isEmpty)
        #expect(out.messages(to: p2) == [.graft([SeqRange(author: author, after: 0, through: 3)])])
        #expect(core.repairs[author]?.peer == p2)
    }

    /// A repair whose peer sent all it holds of the range, short of the range's end, does not wait
    /// for the repair timeout: the rest is asked at once from a peer that holds it.
    @Test func aRepairItsPeerCannotFinishMovesOnAtOnce() throws {
        let (p1, p2, log) = try Self.twoPeersAndALog()
        let author = log[0].author
        var core = partialCore(try Kit.id(), peers: [p1, p2])
        // p1 holds through 3 and is asked for (0, 3]; it then turns out to hold only 1 (its heads
        // after a truncation), sends it, and p2 holds all three.
        _ = core.handle(.frameReceived(from: p1, .heads([Kit.head(log)])), now: t0)
        #expect(core.repairs[author]?.peer == p1)
        _ = core.handle(.frameReceived(from: p1, .heads([Kit.head([log[0]])])), now: t0)
        _ = core.handle(.frameReceived(from: p2, .heads([Kit.head(log)])), now: t0)
        let request = try #require(core.handle(.frameReceived(from: p1, .deltas([log[0]])), now: t0).stores.first)
        let out = core.handle(.stored(StoreResult(id: request.id, applied: request.deltas)), now: t0)
        #expect(out.messages(to: p2) == [.want([SeqRange(author: author, after: 1, through: 3)])])
        #expect(core.repairs[author]?.peer == p2)
    }

    /// Beyond the full mesh, sessions are capped (extra ones closed, kept as passive), and a lost
    /// session is replaced from the passive view.
    @Test func membershipIsBounded() throws {
        let me = try Kit.id()
        var core = Kit.core(me) {
            $0.fullMeshThreshold = 4
            $0.activeView = 5
            $0.maxSessions = 6
            $0.passiveView = 30
        }
        let kiosks = try core.discoverNew(40, now: t0)
        #expect(core.passive.count == 30, "the passive view is bounded")
        var closed: [AuthorID] = []
        for kiosk in kiosks.prefix(8) {
            closed += core.handle(.sessionOpened(peer: kiosk, initiator: kiosk), now: t0).closes.map(\.0)
        }
        #expect(core.sessions.count == 6)
        #expect(closed == Array(kiosks[6..<8]))
        let live = Array(core.sessions.keys)
        _ = core.handle(.sessionClosed(peer: live[0]), now: t0)
        _ = core.handle(.sessionClosed(peer: live[1]), now: t0)
        let refill = core.handle(.timerFired(.membership), now: t0 + core.configuration.membershipInterval)
        #expect(refill.opens.count == 1, "back to the active view of 5")
        #expect(refill.opens.allSatisfy { core.passive.contains($0) })
    }

    /// On a full mesh, membership opens a session to every known kiosk (the lower key of a pair dials).
    @Test func aFullMeshOpensToEveryKnownKiosk() throws {
        let me = try Kit.id()
        let others = try (0..<5).map { _ in try Kit.id() }
        var armed = Kit.core(me)
        armed.discover(others, now: t0)
        armed.open([others[0]], now: t0)
        let opens = armed.handle(.timerFired(.membership), now: t0 + armed.configuration.membershipInterval).opens
        #expect(Set(opens) == Set(others.dropFirst().filter { me.bytes.lexicographicallyPrecedes($0.bytes) }))
    }
}
