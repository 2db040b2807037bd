import Testing

@testable import MusterSim

@Suite struct EventQueueTests {
    @Test func popsByTimeThenBySchedulingOrder() {
        var queue = EventQueue()
        queue.schedule(.crash(kiosk: 3), at: 20)
        queue.schedule(.crash(kiosk: 1), at: 10)
        queue.schedule(.crash(kiosk: 2), at: 10)
        queue.schedule(.crash(kiosk: 0), at: 5)
        for kiosk in 4..<40 { queue.schedule(.crash(kiosk: kiosk), at: 30) }
        var order: [Int] = []
        while let entry = queue.pop() {
            if case .crash(let kiosk) = entry.event { order.append(kiosk) }
        }
        #expect(order == [0, 1, 2, 3] + Array(4..<40))
    }

    @Test func randomStreamsAreIndependentAndReplay() {
        let root = SimRandom(seed: 7)
        var a1 = root.fork(1)
        var a2 = root.fork(1)
        var b = root.fork(2)
        let first = (0..<4).map { _ in a1.next() }
        #expect(first == (0..<4).map { _ in a2.next() })
        #expect(first != (0..<4).map { _ in b.next() })
        var never = SimRandom(seed: 1)
        var copy = never
        _ = never.chance(0)
        #expect(never.next() == copy.next())
    }
}
