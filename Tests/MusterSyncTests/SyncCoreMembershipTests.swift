import MusterCore
import Testing

@testable import MusterSync

/// HyParView's views at venue scale: what a 1,000-kiosk simulation found (RELIABILITY.md, finding 9).
struct SyncCoreMembershipTests {
    typealias Kit = CoreTestKit
    let t0 = Duration.seconds(100)

    /// Kiosks are discovered one after another; the passive view must not end up holding only the
    /// last ones, or every kiosk dials the same few and finds them full.
    @Test func thePassiveViewIsAUniformSampleOfEveryKioskKnown() throws {
        var core = Kit.core(try Kit.id()) {
            $0.fullMeshThreshold = 4
            $0.passiveView = 30
        }
        let kiosks = try core.discoverNew(1_000, now: t0)
        #expect(core.passive.count == 30)
        #expect(core.known.count == 1_000)
        let early = Set(kiosks.prefix(500))
        let fromFirstHalf = core.passive.filter { early.contains($0) }.count
        // 15 expected; taking every newcomer left none of the first half.
        #expect(fromFirstHalf >= 5, "\(fromFirstHalf) of 30 from the first 500 discovered")
    }

    /// Whether the venue is a full mesh follows the kiosks known, not the bounded passive view.
    @Test func fullMeshFollowsTheKiosksKnown() throws {
        var core = Kit.core(try Kit.id()) { $0.fullMeshThreshold = 64 }
        let kiosks = try (0..<100).map { _ in try Kit.id() }
        core.discover(kiosks.prefix(40), now: t0)
        #expect(core.isFullMesh)
        core.discover(kiosks.dropFirst(40), now: t0)
        #expect(!core.isFullMesh)
        // Sessions taken out of the passive view do not make it look small again.
        for peer in core.passive.prefix(5) { _ = core.handle(.sessionOpened(peer: peer, initiator: peer), now: t0) }
        for peer in core.sessions.keys { _ = core.handle(.sessionClosed(peer: peer), now: t0) }
        #expect(!core.isFullMesh)
    }

    /// A session asked for that the driver never answers (the daemon already dials that address)
    /// stops holding its place in the active view after the open timeout.
    @Test func anUnansweredOpenIsGivenUp() throws {
        var core = Kit.core(try Kit.id()) {
            $0.fullMeshThreshold = 4
            $0.activeView = 5
        }
        for _ in 0..<20 { _ = core.handle(.peerDiscovered(try Kit.id()), now: t0) }
        let first = core.handle(.timerFired(.membership), now: t0 + core.configuration.membershipInterval)
        #expect(first.opens.count == 5)
        let soon = t0 + core.configuration.membershipInterval * 2
        #expect(core.handle(.timerFired(.membership), now: soon).opens.isEmpty, "still waiting on the five")
        let late = t0 + core.configuration.membershipInterval + core.configuration.openTimeout + .seconds(1)
        let again = core.handle(.timerFired(.membership), now: late)
        #expect(again.opens.count == 5)
    }

    /// Beyond the full mesh the daemon dials only the kiosks the core asked for; dialing every kiosk
    /// ever met, and having the core close each as "view full", churned a 50-kiosk overlay. A session
    /// that opened (or was refused) is no longer wanted until asked for again.
    @Test func beyondTheFullMeshOnlyTheAskedForAreWanted() throws {
        var core = Kit.core(try Kit.id()) {
            $0.fullMeshThreshold = 4
            $0.activeView = 3
        }
        let kiosks = try core.discoverNew(20, now: t0)
        let opens = core.handle(.timerFired(.membership), now: t0 + core.configuration.membershipInterval).opens
        #expect(opens.count == 3)
        for kiosk in kiosks { #expect(core.wantsSession(with: kiosk) == opens.contains(kiosk)) }
        let first = try #require(opens.first)
        core.open([first], now: t0)
        #expect(!core.wantsSession(with: first))

        var mesh = Kit.core(try Kit.id()) { $0.fullMeshThreshold = 64 }
        mesh.discover(kiosks, now: t0)
        #expect(kiosks.allSatisfy { mesh.wantsSession(with: $0) })
    }

    /// A kiosk whose view is full closes the session we opened before saying hello. Asking it again
    /// every membership tick cost a handshake and a roster each time (about 200 per kiosk in a
    /// 50-kiosk burst): it is skipped for the back-off, unless we have no session at all.
    @Test func aKioskThatRefusedUsIsNotAskedAgainForAWhile() throws {
        var core = Kit.core(try Kit.id()) {
            $0.fullMeshThreshold = 2
            $0.activeView = 2
            $0.passiveView = 2
        }
        for _ in 0..<3 { _ = core.handle(.peerDiscovered(try Kit.id()), now: t0) }
        #expect(!core.isFullMesh)
        let tick = core.configuration.membershipInterval
        let backoff = core.configuration.refusedBackoff
        let opens = core.handle(.timerFired(.membership), now: t0 + tick).opens
        #expect(opens.count == 2)
        let (full, open) = (opens[0], opens[1])
        // `full` closes before its hello: refused. `open` says hello: a session.
        core.open([full], now: t0 + tick)
        _ = core.handle(.sessionClosed(peer: full), now: t0 + tick)
        #expect(core.refusedUntil[full] == t0 + tick + backoff)
        core.open([open], hello: [], now: t0 + tick)
        // One session short, but the one that refused is not asked again within the back-off.
        var now = t0 + tick * 2
        while now < t0 + tick + backoff {
            #expect(!core.handle(.timerFired(.membership), now: now).opens.contains(full))
            now += tick
        }
        #expect(core.handle(.timerFired(.membership), now: now + tick).opens.contains(full))
        #expect(core.refusedUntil[full] == nil)

        // Alone, a kiosk that just refused us is asked again at once: anyone will do.
        core.open([full], now: now + tick)
        _ = core.handle(.sessionClosed(peer: full), now: now + tick)
        _ = core.handle(.sessionClosed(peer: open), now: now + tick)
        #expect(core.refusedUntil[open] == nil, "it said hello: not a refusal")
        let alone = core.handle(.timerFired(.membership), now: now + tick * 2).opens
        #expect(alone.contains(full))
    }
}
