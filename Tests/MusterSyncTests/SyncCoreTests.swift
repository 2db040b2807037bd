import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// The kiosk's sync core without sockets: sessions, relay rule, repair from one peer, re-claims,
/// queue accounting.
struct SyncCoreTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    @Test func anOpenedSessionGetsOurHelloAndDigest() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me, heads: [Kit.head(log)])
        _ = core.handle(.digest("d1"), now: t0)
        let out = core.handle(.sessionOpened(peer: peer, initiator: me), now: t0)
        #expect(out.messages(to: peer) == [.hello(epoch: "epoch-\(me.short)", heads: [Kit.head(log)]), .digest("d1")])
        #expect(core.sessions[peer]?.state == .awaitingHello)
        _ = core.handle(.frameReceived(from: peer, .hello(epoch: "e", heads: [])), now: t0)
        #expect(core.sessions[peer]?.state == .established)
    }

    /// Two peers hold what we lack: exactly one is asked, and only it sends.
    @Test func aLaggingKioskAsksOnePeerPerRange() throws {
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        let log = Kit.log(10, key: try Kit.key())
        var core = Kit.core(me)
        core.open([p1, p2], now: t0)
        let first = core.handle(.frameReceived(from: p1, .hello(epoch: "1", heads: [Kit.head(log)])), now: t0)
        let second = core.handle(.frameReceived(from: p2, .hello(epoch: "2", heads: [Kit.head(log)])), now: t0)
        let wants = (first + second).wants
        #expect(wants.count == 1)
        #expect(wants.first?.1 == [SeqRange(author: log[0].author, after: 0, through: 10)])
        #expect(core.repairs[log[0].author]?.peer == wants.first?.0)
        // Heads again from both: still one request.
        let again = core.handle(.frameReceived(from: p2, .heads([Kit.head(log)])), now: t0 + .milliseconds(10))
        #expect(again.wants.isEmpty)
    }

    /// A request that makes no progress moves to the other peer; one that progresses keeps going.
    @Test func aStalledRepairMovesToAnotherPeer() throws {
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        let log = Kit.log(4, key: try Kit.key())
        var core = Kit.core(me)
        core.open([p1, p2], hello: [Kit.head(log)], now: t0)
        let asked = try #require(core.repairs[log[0].author]?.peer)
        let other = asked == p1 ? p2 : p1
        let later = t0 + core.configuration.repairTimeout + .milliseconds(1)
        let out = core.handle(.timerFired(.repair), now: later)
        #expect(out.wants.map(\.0) == [other])
        #expect(core.repairs[log[0].author]?.peer == other)
    }

    /// A long log comes in chunks, one outstanding at a time, each stored before the next is asked.
    @Test func aLongLogIsRepairedInChunks() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(5, key: try Kit.key())
        var core = Kit.core(me) { $0.repairChunk = 2 }
        core.open([peer], now: t0)
        let out = core.handle(.frameReceived(from: peer, .hello(epoch: "e", heads: [Kit.head(log)])), now: t0)
        #expect(out.wants.first?.1 == [SeqRange(author: log[0].author, after: 0, through: 2)])
        let stored = core.handle(.frameReceived(from: peer, .deltas(Array(log[0..<2]))), now: t0)
        let request = try #require(stored.stores.first)
        #expect(request.deltas == Array(log[0..<2]))
        #expect(stored.wants.isEmpty, "nothing asked while the chunk is being stored")
        let next = core.handle(.stored(StoreResult(id: request.id, applied: request.deltas)), now: t0)
        #expect(next.wants.first?.1 == [SeqRange(author: log[0].author, after: 2, through: 4)])
        #expect(core.heads[log[0].author]?.seq == 2)
    }

    /// A session replaced by a new one with the same peer (crossed dials): what was asked on the old
    /// one is asked again once the new one says hello, not after the repair timeout.
    @Test func aRepairAskedOnAReplacedSessionIsAskedAgainAtOnce() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(6, key: try Kit.key())
        let author = log[0].author
        var core = Kit.core(me) { $0.repairChunk = 4 }
        core.open([peer], hello: [Kit.head(log)], now: t0)
        #expect(core.repairs[author]?.peer == peer)
        let request = try #require(
            core.handle(.frameReceived(from: peer, .deltas(Array(log[0..<2]))), now: t0).stores.first
        )
        _ = core.handle(.stored(StoreResult(id: request.id, applied: request.deltas)), now: t0)

        let later = t0 + .milliseconds(5)
        _ = core.handle(.sessionOpened(peer: peer, initiator: peer), now: later)
        #expect(core.repairs[author] == nil, "the old connection's pages will not be read")
        let hello = core.handle(.frameReceived(from: peer, .hello(epoch: "e", heads: [Kit.head(log)])), now: later)
        #expect(hello.wants.map(\.0) == [peer])
        #expect(hello.wants.first?.1 == [SeqRange(author: author, after: 2, through: 6)])
    }

    /// A range committed lately is sent from memory as a message (no read of the store), but only
    /// when it ends on a delta whose signature the store checked; otherwise the store serves it.
    @Test func aRangeCommittedLatelyIsServedFromMemory() throws {
        let me = try Kit.id()
        let (p1, p2, p3) = (try Kit.id(), try Kit.id(), try Kit.id())
        let log = Kit.log(4, key: try Kit.key())
        let author = log[0].author
        var core = Kit.core(me)
        core.open([p1, p2, p3], hello: [], now: t0)
        let request = try #require(core.handle(.frameReceived(from: p1, .deltas(log)), now: t0).stores.first)
        _ = core.handle(.stored(StoreResult(id: request.id, applied: log, signatureChecked: [log[3].ref])), now: t0)
        let whole = core.handle(
            .frameReceived(from: p2, .want([SeqRange(author: author, after: 1, through: 4)])),
            now: t0
        )
        #expect(whole.ranges.isEmpty)
        #expect(whole.messages(to: p2).contains(.deltas(Array(log[1...]))))
        let chained = core.handle(
            .frameReceived(from: p3, .graft([SeqRange(author: author, after: 0, through: 1)])),
            now: t0
        )
        #expect(chained.ranges.map(\.1) == [SeqRange(author: author, after: 0, through: 1)])
        #expect(!chained.messages(to: p3).contains { if case .deltas = $0 { true } else { false } })
    }

    /// Heads never cause a push, so a peer claiming seq 0 again is not sent the log again; a request
    /// repeated while the first answer is on its way is trimmed, and honoured once the window passed.
    @Test func aReClaimOfSeqZeroDoesNotResendTheLog() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(100, key: try Kit.key())
        let author = log[0].author
        var core = Kit.core(me, heads: [Kit.head(log)])
        core.open([peer], now: t0)
        let hello = core.handle(.frameReceived(from: peer, .hello(epoch: "e", heads: [])), now: t0)
        #expect(hello.ranges.isEmpty, "heads alone never cause a send")
        let want = SyncMessage.want([SeqRange(author: author, after: 0, through: 100)])
        #expect(
            core.handle(.frameReceived(from: peer, want), now: t0).ranges.map(\.1) == [
                SeqRange(author: author, after: 0, through: 100)
            ]
        )
        #expect(core.handle(.frameReceived(from: peer, .heads([])), now: t0).ranges.isEmpty)
        #expect(core.handle(.frameReceived(from: peer, want), now: t0 + .milliseconds(5)).ranges.isEmpty)
        let later = t0 + core.configuration.reserveWindow + .milliseconds(1)
        #expect(core.handle(.frameReceived(from: peer, want), now: later).ranges.count == 1)
    }

    /// A queued range weighs its size; writing it frees the room; an overflow closes the session.
    @Test func queuedRangesCountBySize() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let (logA, logB) = (Kit.log(100, key: try Kit.key()), Kit.log(100, key: try Kit.key()))
        var core = Kit.core(me, heads: [Kit.head(logA), Kit.head(logB)]) { $0.maxQueuedDeltas = 120 }
        core.open([peer], now: t0)
        let first = core.handle(
            .frameReceived(from: peer, .want([SeqRange(author: logA[0].author, after: 0, through: 100)])),
            now: t0
        )
        #expect(first.ranges.count == 1)
        #expect(core.sessions[peer]?.queued == 100)
        _ = core.handle(.written(peer: peer, weight: 100), now: t0)
        #expect(core.sessions[peer]?.queued == 0)
        _ = core.handle(
            .frameReceived(from: peer, .want([SeqRange(author: logA[0].author, after: 50, through: 100)])),
            now: t0 + .seconds(10)
        )
        let over = core.handle(
            .frameReceived(from: peer, .want([SeqRange(author: logB[0].author, after: 0, through: 100)])),
            now: t0 + .seconds(10)
        )
        #expect(over.closes.map(\.1) == [.notReading])
        #expect(over.ranges.isEmpty)
    }

    /// What came from a kiosk the peer is in session with is not relayed to it; others get it.
    @Test func theRelayRuleSkipsPeersInSessionWithTheSender() throws {
        let me = try Kit.id()
        let (sender, near, far) = (try Kit.id(), try Kit.id(), try Kit.id())
        let log = Kit.log(1, key: try Kit.key())
        var core = Kit.core(me)
        core.open([sender, near, far], hello: [], now: t0)
        _ = core.handle(.frameReceived(from: near, .sessions([sender])), now: t0)
        let out = core.handle(.frameReceived(from: sender, .deltas(log)), now: t0)
        let request = try #require(out.stores.first)
        let relayed = core.handle(.stored(StoreResult(id: request.id, applied: log)), now: t0)
        #expect(relayed.messages(to: far) == [.deltas(log)])
        #expect(relayed.messages(to: near).isEmpty)
        #expect(relayed.messages(to: sender).isEmpty, "never echoed back")
        let local = Kit.log(1, key: try Kit.key())
        let pushed = core.handle(.localCommit(local), now: t0)
        #expect(pushed.messages(to: near) == [.deltas(local)], "written here: pushed to every session")
    }

    /// Two kiosks whose crossed dials replace one session by another were never apart: what the peer
    /// said of its other sessions still holds, so the replacement does not make this kiosk relay to it
    /// what it hears from their authors itself (issue 32: 41 copies each way, 1 run in 50).
    @Test func aReplacingSessionKeepsWhatThePeerSaidOfItsSessions() throws {
        let me = try Kit.id()
        let (sender, near) = (try Kit.id(), try Kit.id())
        let log = Kit.log(1, key: try Kit.key())
        var core = Kit.core(me)
        core.open([sender, near], hello: [], now: t0)
        _ = core.handle(.frameReceived(from: near, .sessions([sender])), now: t0)
        _ = core.handle(.sessionOpened(peer: near, initiator: near), now: t0)
        let out = core.handle(.frameReceived(from: sender, .deltas(log)), now: t0)
        let request = try #require(out.stores.first)
        let relayed = core.handle(.stored(StoreResult(id: request.id, applied: log)), now: t0)
        #expect(relayed.messages(to: near).isEmpty, "near is in session with the sender")
    }

    /// A delta after a gap is not stored; the gap is asked for from the peer that sent it.
    @Test func aGapIsAskedForFromTheSender() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me)
        core.open([peer], hello: [], now: t0)
        let out = core.handle(.frameReceived(from: peer, .deltas([log[2]])), now: t0)
        #expect(out.stores.isEmpty)
        #expect(out.wants.first?.0 == peer)
        #expect(out.wants.first?.1 == [SeqRange(author: log[0].author, after: 0, through: 3)])
    }

    /// Copies already held are not stored again and are counted.
    @Test func copiesAreDroppedAndCounted() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(2, key: try Kit.key())
        var core = Kit.core(me)
        _ = core.handle(.localCommit(log), now: t0)
        core.open([peer], now: t0)
        let out = core.handle(.frameReceived(from: peer, .deltas(log)), now: t0)
        #expect(out.stores.isEmpty)
        #expect(core.tallies[peer] == PeerTally(deltasReceived: 2, copiesReceived: 2))
    }

    /// `muster status` counts per peer key: what a peer sent is neither lost when its session ends nor
    /// counted twice when a duplicate session replaces the live one (issue 32).
    @Test func aPeersTallyOutlivesItsSessions() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me)
        core.open([peer], now: t0)
        _ = core.handle(.frameReceived(from: peer, .deltas([log[0]])), now: t0)
        // A duplicate session replaces the live one; then the session ends and a new one begins.
        _ = core.handle(.sessionOpened(peer: peer, initiator: peer), now: t0)
        _ = core.handle(.frameReceived(from: peer, .deltas([log[1]])), now: t0)
        _ = core.handle(.sessionClosed(peer: peer), now: t0)
        core.open([peer], now: t0)
        _ = core.handle(.frameReceived(from: peer, .deltas([log[2]])), now: t0)
        #expect(core.tallies[peer]?.deltasReceived == 3)
    }

    /// A different delta at a seq we hold is not taken for a copy: the store sees it (a fork is kept
    /// as evidence there).
    @Test func aDifferentDeltaAtAHeldSeqReachesTheStore() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let key = try Kit.key()
        let log = Kit.log(1, key: key)
        var signer = DeltaSigner(venue: Kit.venue, startingLogOf: key)
        let fork = try signer.sign(
            .note(NotePayload(campaignID: "c", attendeeKey: "b@example.com", text: "other")),
            hlc: HLC(physicalMillis: 5_000, logical: 0)
        )
        var core = Kit.core(me)
        _ = core.handle(.localCommit(log), now: t0)
        core.open([peer], now: t0)
        let out = core.handle(.frameReceived(from: peer, .deltas([fork])), now: t0)
        #expect(out.stores.first?.deltas == [fork])
        let done = core.handle(.stored(StoreResult(id: out.stores[0].id, applied: [])), now: t0)
        #expect(done.wants.isEmpty)
        #expect(core.heads[log[0].author]?.seq == 1)
    }

    /// A silent peer is closed; an idle link gets a ping; a peer whose deltas we are storing is not
    /// taken for silent.
    @Test func livenessPingsAndCloses() throws {
        let me = try Kit.id()
        let (quiet, busy) = (try Kit.id(), try Kit.id())
        var core = Kit.core(me)
        core.open([quiet, busy], now: t0)
        _ = core.handle(.frameReceived(from: busy, .deltas(Kit.log(1, key: try Kit.key()))), now: t0)
        let ping = core.handle(.timerFired(.liveness), now: t0 + core.configuration.heartbeatInterval)
        #expect(ping.messages(to: quiet) == [.ping])
        let late = t0 + core.configuration.silenceTimeout! + .milliseconds(300)
        _ = core.handle(.frameReceived(from: quiet, .pong), now: t0 + .seconds(1))
        let out = core.handle(.timerFired(.liveness), now: late + .seconds(1))
        #expect(out.closes.map(\.0) == [quiet])
    }

    @Test func newMessagesRoundTrip() throws {
        let author = try Kit.id()
        let ranges = [SeqRange(author: author, after: 3, through: 9), SeqRange(author: author, after: 0, through: 0)]
        for message: SyncMessage in [.want(ranges), .graft(ranges), .prune, .ihave(ranges), .want([])] {
            #expect(try SyncMessage.decode(message.encode()) == message)
        }
        var backwards = ByteWriter()
        backwards.write(UInt8(11))
        backwards.writeVarint(1)
        backwards.writeRaw(author.bytes)
        backwards.write(UInt64(9))
        backwards.write(UInt64(3))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(backwards.bytes) }
        var crowd = ByteWriter()
        crowd.write(UInt8(14))
        crowd.writeVarint(UInt64(SyncMessage.maxRanges + 1))
        #expect(throws: DecodeError.self) { try SyncMessage.decode(crowd.bytes) }
    }
}

extension SyncCoreTests {
    /// A chain the store cut (a revocation's watermark, later taken back by an organizer fork) is
    /// no longer held past its new head: a copy of a cut delta goes to the store again instead of
    /// being dropped as recently committed. Without it a kiosk never held the victim's chain again
    /// (RELIABILITY.md, finding 7).
    @Test func aDeltaTheStoreCutIsStoredAgainWhenItComesBack() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(4, key: try Kit.key())
        var core = Kit.core(me)
        core.open([peer], hello: [], now: t0)
        let request = try #require(core.handle(.frameReceived(from: peer, .deltas(log)), now: t0).stores.first)
        _ = core.handle(.stored(StoreResult(id: request.id, applied: log)), now: t0)
        // A copy of what is held is dropped before the store.
        #expect(core.handle(.frameReceived(from: peer, .deltas([log[2]])), now: t0).stores.isEmpty)
        // The store cut the chain after seq 2.
        _ = core.handle(.storeHeads([Kit.head(Array(log[0..<2]))]), now: t0)
        let again = core.handle(.frameReceived(from: peer, .deltas(Array(log[2...]))), now: t0)
        #expect(again.stores.first?.deltas == Array(log[2...]))
    }
}

extension SyncCoreTests {
    /// The repair scan passes by a session it found with nothing beyond our heads, but only while
    /// our heads do not fall: once the store cuts a chain, what the peer holds beyond the new head is
    /// asked for again.
    @Test func aCutChainIsAskedForAgainFromAPeerFoundWithNothingNew() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(4, key: try Kit.key())
        var core = Kit.core(me, heads: [Kit.head(log)])
        core.open([peer], hello: [Kit.head(log)], now: t0)
        #expect(core.repairs.isEmpty)
        #expect(core.sessions[peer]?.mayBeAhead == [])
        let out = core.handle(.storeHeads([Kit.head(Array(log[0..<2]))]), now: t0)
        #expect(out.wants.map(\.0) == [peer])
        #expect(out.wants.first?.1 == [SeqRange(author: log[0].author, after: 2, through: 4)])
    }
}
