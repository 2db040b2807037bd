import MusterCore
import Testing

@testable import MusterSync

/// When a local write may be acknowledged under `ack_copies`: once enough distinct peers hold it.
struct CopyWaitersTests {
    let a = AuthorID(bytes: [UInt8](repeating: 1, count: 32))!
    let b = AuthorID(bytes: [UInt8](repeating: 2, count: 32))!

    @Test func aWaiterIsAnsweredOnceEnoughPeersHoldItsSeq() throws {
        var waiters = CopyWaiters<String>()
        let first = waiters.wait(for: 3, peers: 2, "seq 3")
        #expect(first != nil)
        #expect(waiters.wait(for: 5, peers: 1, "seq 5") != nil)
        #expect(waiters.held(2, by: a).isEmpty, "below the seq")
        let one = waiters.held(3, by: a)
        #expect(one.isEmpty, "one peer of two")
        #expect(waiters.held(3, by: a).isEmpty, "the same peer again is not a second copy")
        let two = waiters.held(6, by: b)
        #expect(Set(two.map(\.waiter)) == ["seq 3", "seq 5"])
        #expect(two.first { $0.waiter == "seq 3" }?.holders == 2)
        #expect(two.first { $0.waiter == "seq 5" }?.holders == 1)
    }

    /// A seq already held is answered without waiting; what peers held stays known.
    @Test func whatIsAlreadyHeldIsNotWaitedFor() throws {
        var waiters = CopyWaiters<Int>()
        _ = waiters.held(7, by: a)
        #expect(waiters.holders(of: 7) == 1)
        #expect(waiters.wait(for: 7, peers: 1, 0) == nil)
        #expect(waiters.wait(for: 8, peers: 1, 1) != nil)
    }

    /// A wait given up is answered by nobody else, and only once.
    @Test func aWaitGivenUpIsGoneOnce() throws {
        var waiters = CopyWaiters<Int>()
        let waiting = waiters.wait(for: 2, peers: 1, 42)
        let id = try #require(waiting)
        #expect(waiters.giveUp(id) == 42)
        #expect(waiters.giveUp(id) == nil)
        #expect(waiters.held(2, by: a).isEmpty)
    }
}
