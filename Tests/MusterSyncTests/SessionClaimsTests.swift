import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// What the core takes a peer to hold from its heads, and which of those claims the repair scan
/// reads again: only the ones that may be beyond our heads.
struct SessionClaimsTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(1)

    /// Heads as a kiosk sends them: by author.
    static func ordered(_ heads: [AuthorHead]) -> [AuthorHead] { heads.sorted { $0.author < $1.author } }

    @Test func aClaimThatRoseIsAskedForAndTheScanThenReadsOnlyIt() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let first = Kit.log(6, key: try Kit.key())
        let second = Kit.log(6, key: try Kit.key())
        var core = Kit.core(me, heads: [Kit.head(Array(first[0..<4])), Kit.head(Array(second[0..<4]))])
        core.open(
            [peer],
            hello: Self.ordered([Kit.head(Array(first[0..<4])), Kit.head(Array(second[0..<4]))]),
            now: t0
        )
        #expect(core.repairs.isEmpty)
        #expect(core.sessions[peer]?.mayBeAhead == [])

        let risen = Self.ordered([Kit.head(Array(first[0..<4])), Kit.head(second)])
        let out = core.handle(.frameReceived(from: peer, .heads(risen)), now: t0)
        #expect(out.wants.map(\.0) == [peer])
        #expect(out.wants.first?.1 == [SeqRange(author: second[0].author, after: 4, through: 6)])
        #expect(core.sessions[peer]?.peerHas == [first[0].author: 4, second[0].author: 6])
        #expect(core.sessions[peer]?.mayBeAhead == [second[0].author])

        // The same heads again: nothing rose, nothing more is asked (the repair is under way).
        let again = core.handle(.frameReceived(from: peer, .heads(risen)), now: t0)
        #expect(again.wants.isEmpty)
        // Once stored, the claim is no longer beyond our heads.
        let request = try #require(
            core.handle(.frameReceived(from: peer, .deltas(Array(second[4...]))), now: t0).stores.first
        )
        _ = core.handle(.stored(StoreResult(id: request.id, applied: Array(second[4...]))), now: t0)
        #expect(core.sessions[peer]?.mayBeAhead == [])
    }

    @Test func anAuthorNamedTwiceCountsAtItsHigherSeqAndOneNoLongerNamedIsNoLongerClaimed() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let first = Kit.log(5, key: try Kit.key())
        let second = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me, heads: [Kit.head(first), Kit.head(second)])
        // A hostile peer's heads: the first author twice, the higher claim second.
        let twice = [Kit.head(Array(first[0..<2])), Kit.head(second), Kit.head(first)]
        core.open([peer], hello: twice, now: t0)
        #expect(core.sessions[peer]?.peerHas == [first[0].author: 5, second[0].author: 3])

        _ = core.handle(.frameReceived(from: peer, .heads([Kit.head(first)])), now: t0)
        #expect(core.sessions[peer]?.peerHas == [first[0].author: 5])
    }

    @Test func tooManyRisenClaimsAreReadWholeAgain() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        var core = Kit.core(me)
        core.open([peer], hello: [], now: t0)
        #expect(core.sessions[peer]?.mayBeAhead == [])
        let authors = try (0...SessionMachine.mayBeAheadLimit).map { _ in try Kit.id() }
        let claims = Self.ordered(authors.map { AuthorHead(author: $0, seq: 1, hash: [1]) })
        let out = core.handle(.frameReceived(from: peer, .heads(claims)), now: t0)
        // Every author is asked for, and the scan no longer knows which claims to read alone.
        #expect(out.wants.flatMap(\.1).count == authors.count)
        #expect(core.sessions[peer]?.mayBeAhead == nil)
    }
}
