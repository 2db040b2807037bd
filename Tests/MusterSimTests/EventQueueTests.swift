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

    /// Scheduling while popping (slots freed and taken again) keeps the order a sort by (time,
    /// scheduling order) gives.
    @Test func interleavedSchedulingAndPoppingKeepTheOrder() {
        var queue = EventQueue()
        var random = SimRandom(seed: 11)
        var reference: [(time: VirtualTime, order: Int)] = []
        var popped: [Int] = []
        var expected: [Int] = []
        var next = 0
        var now: VirtualTime = 0
        for _ in 0..<2_000 {
            if random.chance(0.55) || reference.isEmpty {
                let time = now + VirtualTime(random.int(in: 0...50))
                queue.schedule(.crash(kiosk: next), at: time)
                reference.append((time, next))
                next += 1
            } else {
                let earliest = reference.indices.min {
                    (reference[$0].time, reference[$0].order) < (reference[$1].time, reference[$1].order)
                }!
                expected.append(reference.remove(at: earliest).order)
                guard let entry = queue.pop(), case .crash(let kiosk) = entry.event else {
                    Issue.record("the queue ran dry with \(reference.count + 1) events left")
                    return
                }
                now = entry.time
                popped.append(kiosk)
            }
        }
        #expect(popped == expected)
        #expect(queue.count == reference.count)
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
