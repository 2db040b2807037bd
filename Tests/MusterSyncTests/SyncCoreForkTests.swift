import MusterCore
import MusterCrypto
import MusterRules
import Testing

@testable import MusterSync

/// A fork shown to different kiosks (issue 13): the core brings the two versions of a seq together
/// in one store, stops asking for a chain the store cut, and passes the evidence on once.
struct SyncCoreForkTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    /// Two logs of one author that share seq 1 and differ from seq 2 on (signed by the same key).
    static func forkedLogs(_ count: Int) throws -> ([SignedDelta], [SignedDelta]) {
        let key = try Kit.key()
        let a = Kit.log(count, key: key)
        var signer = DeltaSigner(venue: a[0].venue, keyPair: key, head: Kit.head(Array(a.prefix(1))))
        var b = Array(a.prefix(1))
        for index in 2...count {
            b.append(
                try signer.sign(
                    .note(NotePayload(campaignID: "c", attendeeKey: "b\(index)@example.com", text: "branch b")),
                    hlc: HLC(physicalMillis: 1_900_000_000_000 + UInt64(index), logical: 0)
                )
            )
        }
        return (a, b)
    }

    @Test func headsOfOneSeqWithTwoHashesSendOurVersionAtAPace() throws {
        let (a, b) = try Self.forkedLogs(3)
        let me = try Kit.id()
        let peer = try Kit.id()
        var core = Kit.core(me, heads: [Kit.head(a)])
        core.open([peer], now: t0)
        let out = core.handle(.frameReceived(from: peer, .heads([Kit.head(b)])), now: t0)
        #expect(out.ranges.map(\.0) == [peer])
        #expect(out.ranges.map(\.1) == [SeqRange(author: a[0].author, after: 2, through: 3)])
        // Nothing asked for: the peer holds the same seq.
        #expect(out.wants.isEmpty)
        let again = core.handle(.frameReceived(from: peer, .heads([Kit.head(b)])), now: t0 + .seconds(5))
        #expect(again.ranges.isEmpty)
        // Still shown the other version later (the probe may have been lost): sent again.
        let later = t0 + core.forkResendInterval
        #expect(core.handle(.frameReceived(from: peer, .heads([Kit.head(b)])), now: later).ranges.count == 1)
        // Equal heads probe nothing.
        var honest = Kit.core(me, heads: [Kit.head(a)])
        honest.open([peer], now: t0)
        #expect(honest.handle(.frameReceived(from: peer, .heads([Kit.head(a)])), now: t0).ranges.isEmpty)
    }

    /// A core in session with `peer` (whose hello shows `theirs`, by default all of `a`), that was
    /// sent `sent` (by default `a` from seq 3) and hears the store refuse its first delta with
    /// `code`; returns what it answers.
    func refused(
        _ code: DeltaRejection.Code,
        _ a: [SignedDelta],
        sent: [SignedDelta]? = nil,
        theirs: [SignedDelta]? = nil,
        core: inout SyncCore,
        peer: AuthorID
    ) throws -> [SyncOutput] {
        let sent = sent ?? Array(a[2...])
        core.open([peer], hello: [Kit.head(theirs ?? a)], now: t0)
        let request = try #require(core.handle(.frameReceived(from: peer, .deltas(sent)), now: t0).stores.first)
        let result = StoreResult(
            id: request.id,
            applied: [],
            rejected: [DeltaRejection(code, "refused", ref: sent[0].ref)]
        )
        return core.handle(.stored(result), now: t0)
    }

    @Test func aBrokenChainSendsOurVersionOfOurHeadToThePeerThatSentIt() throws {
        let (a, _) = try Self.forkedLogs(4)
        let peer = try Kit.id()
        var core = Kit.core(try Kit.id(), heads: [Kit.head(Array(a.prefix(2)))])
        let out = try refused(.brokenChain, a, core: &core, peer: peer)
        #expect(out.ranges.map(\.0) == [peer])
        #expect(out.ranges.map(\.1) == [SeqRange(author: a[0].author, after: 1, through: 2)])
    }

    /// The organizer's chain is never cut (`RunJudge.judgeOrganizerVersion`): a delta at a seq we hold
    /// that follows another version of the seq below is refused as a broken chain at its seq, and
    /// our version of that seq below goes to the peer. Step by step the two replicas walk down to
    /// the seq where their chains part, where the stores decide which version every replica keeps.
    @Test func aBrokenChainBelowOurHeadSendsOurVersionOfTheSeqBelowIt() throws {
        let (a, b) = try Self.forkedLogs(5)
        let peer = try Kit.id()
        var core = Kit.core(try Kit.id(), heads: [Kit.head(a)])
        let out = try refused(.brokenChain, a, sent: [b[4]], theirs: b, core: &core, peer: peer)
        #expect(out.ranges.map(\.0) == [peer])
        #expect(out.ranges.map(\.1) == [SeqRange(author: a[0].author, after: 3, through: 4)])
    }

    /// A peer whose head is ours holds what we hold: fork evidence is not sent to it again on every
    /// heads message (the organizer's chain goes on past its forks), only to a peer still past a cut
    /// with another head.
    @Test func evidenceIsNotResentToAPeerWhoseHeadIsOurs() throws {
        let (a, b) = try Self.forkedLogs(4)
        let peer = try Kit.id()
        var core = Kit.core(try Kit.id(), heads: [Kit.head(a)])
        core.open([peer], hello: [Kit.head(a)], now: t0)
        _ = core.handle(.forkEvidence([a[1], b[1]]), now: t0)
        let later = t0 + core.forkResendInterval
        #expect(core.handle(.frameReceived(from: peer, .heads([Kit.head(a)])), now: later).messages(to: peer).isEmpty)
        let other = core.handle(.frameReceived(from: peer, .heads([Kit.head(b)])), now: later)
        #expect(other.messages(to: peer).contains(.deltas([a[1], b[1]])))
    }

    @Test func aChainTheStoreCutIsNotAskedForAgain() throws {
        let (a, _) = try Self.forkedLogs(6)
        let peer = try Kit.id()
        var core = Kit.core(try Kit.id(), heads: [Kit.head(Array(a.prefix(2)))])
        let out = try refused(.forked, a, core: &core, peer: peer)
        #expect(out.wants.isEmpty)
        let later = core.handle(.timerFired(.repair), now: t0 + core.configuration.repairTimeout * 3)
        #expect(later.wants.isEmpty)
        #expect(core.handle(.frameReceived(from: peer, .heads([Kit.head(a)])), now: t0 + .seconds(20)).wants.isEmpty)
    }

    @Test func evidenceGoesToEachPeerOnceAnInterval() throws {
        let (a, b) = try Self.forkedLogs(2)
        let evidence = [a[1], b[1]]
        let me = try Kit.id()
        let (p1, p2) = (try Kit.id(), try Kit.id())
        var core = Kit.core(me)
        core.open([p1, p2], hello: [], now: t0)
        let out = core.handle(.forkEvidence(evidence), now: t0)
        #expect(out.messages(to: p1) == [.deltas(evidence)])
        #expect(out.messages(to: p2) == [.deltas(evidence)])
        #expect(core.handle(.forkEvidence(evidence), now: t0 + .seconds(1)).messages(to: p1).isEmpty)
        // A new session hears it again.
        _ = core.handle(.sessionClosed(peer: p1), now: t0 + .seconds(2))
        core.open([p1], hello: [], now: t0 + .seconds(3))
        #expect(core.handle(.forkEvidence(evidence), now: t0 + .seconds(4)).messages(to: p1) == [.deltas(evidence)])
    }
}
