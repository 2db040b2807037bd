import MusterCore
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterSync

/// A session is repaired from only once the peer's hello has come; one whose hello never comes is
/// closed, to be dialed again, however much the peer says meanwhile (RELIABILITY.md, finding 32).
struct HelloTimeoutTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(1)

    @Test func aSessionWhoseHelloNeverCameIsClosedAtTheTimeoutAndNotBefore() throws {
        let me = try Kit.id()
        let (lost, greeted) = (try Kit.id(), try Kit.id())
        let log = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me)
        core.open([lost], now: t0)
        core.open([greeted], hello: [], now: t0)
        let timeout = try #require(core.configuration.helloTimeout)
        // Both peers are heard every second; the one whose hello was lost claims a log we lack.
        var now = t0
        var asked: [(AuthorID, [SeqRange])] = []
        while now + .seconds(1) < t0 + timeout {
            now += .seconds(1)
            asked += core.handle(.frameReceived(from: lost, .heads([Kit.head(log)])), now: now).wants
            _ = core.handle(.frameReceived(from: greeted, .ping), now: now)
            #expect(core.handle(.timerFired(.liveness), now: now).closes.isEmpty)
        }
        #expect(asked.isEmpty)
        #expect(core.sessions[lost]?.peerHas[log[0].author] == 3)

        _ = core.handle(.frameReceived(from: greeted, .ping), now: t0 + timeout)
        let out = core.handle(.timerFired(.liveness), now: t0 + timeout)
        #expect(out.closes.map(\.0) == [lost])
        #expect(out.closes.first?.1 == .noHello)
        #expect(core.sessions[greeted]?.state == .established)
    }

    @Test func aSessionWhoseHelloCameIsRepairedFromAndNeverClosedForIt() throws {
        let me = try Kit.id()
        let peer = try Kit.id()
        let log = Kit.log(3, key: try Kit.key())
        var core = Kit.core(me)
        core.open([peer], hello: [Kit.head(log)], now: t0)
        #expect(core.repairs[log[0].author]?.peer == peer)
        let timeout = try #require(core.configuration.helloTimeout)
        _ = core.handle(.frameReceived(from: peer, .ping), now: t0 + timeout)
        #expect(core.handle(.timerFired(.liveness), now: t0 + timeout).closes.isEmpty)
    }
}
