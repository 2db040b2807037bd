import Testing

@testable import MusterCore

@Suite("HLC")
struct HLCTests {
    @Test func packsMillisAboveTheCounter() {
        let hlc = HLC(physicalMillis: 1_700_000_000_123, logical: 7)
        #expect(hlc.packed == 1_700_000_000_123 << 16 | 7)
        #expect(HLC(packed: hlc.packed) == hlc)
        #expect(HLC(packed: hlc.packed).physicalMillis == 1_700_000_000_123)
        #expect(HLC(packed: hlc.packed).logical == 7)
        #expect(HLC.zero.packed == 0)
    }

    @Test func packedValueStaysAPositiveSQLiteInteger() {
        let top = HLC(physicalMillis: HLC.maxPhysicalMillis, logical: .max)
        #expect(top.packed <= UInt64(Int64.max))
        #expect(HLC(packed: top.packed) == top)
        // Larger millis are clamped rather than spilling into the sign bit.
        #expect(HLC(physicalMillis: .max, logical: 0).physicalMillis == HLC.maxPhysicalMillis)
    }

    @Test func ordersByMillisThenCounter() {
        let a = HLC(physicalMillis: 1_000, logical: 65_535)
        let b = HLC(physicalMillis: 1_001, logical: 0)
        let c = HLC(physicalMillis: 1_001, logical: 1)
        #expect(a < b)
        #expect(b < c)
        #expect(a < c)
        #expect(!(c < a))
        #expect([c, a, b].sorted() == [a, b, c])
        // The packed integers sort the same way, which is what SQLite relies on.
        #expect(a.packed < b.packed && b.packed < c.packed)
    }
}

@Suite("HybridClock")
struct HybridClockTests {
    @Test func tickFollowsAnAdvancingPhysicalClock() {
        var clock = HybridClock()
        #expect(clock.tick(nowMillis: 1_000) == HLC(physicalMillis: 1_000, logical: 0))
        #expect(clock.tick(nowMillis: 2_000) == HLC(physicalMillis: 2_000, logical: 0))
        #expect(clock.last == HLC(physicalMillis: 2_000, logical: 0))
    }

    @Test func tickIsStrictlyMonotonicWhenTheClockStandsStill() {
        var clock = HybridClock()
        var previous = clock.tick(nowMillis: 5_000)
        for _ in 0..<1_000 {
            let next = clock.tick(nowMillis: 5_000)
            #expect(next > previous)
            #expect(next.physicalMillis == 5_000)
            previous = next
        }
        #expect(previous.logical == 1_000)
    }

    @Test func tickIsStrictlyMonotonicWhenTheClockGoesBackwards() {
        var clock = HybridClock()
        let first = clock.tick(nowMillis: 10_000)
        let second = clock.tick(nowMillis: 3_000)  // NTP-less kiosk clock jumped back
        let third = clock.tick(nowMillis: 2_999)
        #expect(first < second)
        #expect(second < third)
        #expect(second == HLC(physicalMillis: 10_000, logical: 1))
        #expect(third == HLC(physicalMillis: 10_000, logical: 2))
        // Once the physical clock passes the HLC again it takes over.
        #expect(clock.tick(nowMillis: 10_001) == HLC(physicalMillis: 10_001, logical: 0))
    }

    @Test func logicalOverflowRollsToTheNextMillisecond() {
        var clock = HybridClock(last: HLC(physicalMillis: 7_000, logical: UInt16.max - 1))
        let a = clock.tick(nowMillis: 7_000)
        #expect(a == HLC(physicalMillis: 7_000, logical: .max))
        let b = clock.tick(nowMillis: 7_000)
        #expect(b == HLC(physicalMillis: 7_001, logical: 0))
        #expect(a < b)
        #expect(clock.tick(nowMillis: 6_000) == HLC(physicalMillis: 7_001, logical: 1))
    }

    @Test func observeMergesARemoteTimeWithinTheBound() {
        var clock = HybridClock(maxAheadMillis: 60_000)
        _ = clock.tick(nowMillis: 100_000)
        let remote = HLC(physicalMillis: 130_000, logical: 4)
        #expect(clock.observe(remote, nowMillis: 100_000) == .merged)
        #expect(clock.last == remote)
        // The next local event is after what was observed, even though local time is behind.
        let next = clock.tick(nowMillis: 100_001)
        #expect(next > remote)
        #expect(next == HLC(physicalMillis: 130_000, logical: 5))
    }

    @Test func observingAnOlderTimeKeepsTheLocalClock() {
        var clock = HybridClock()
        let local = clock.tick(nowMillis: 50_000)
        #expect(clock.observe(HLC(physicalMillis: 1_000, logical: 9), nowMillis: 50_000) == .merged)
        #expect(clock.last == local)
    }

    @Test func exactlyAtTheBoundIsMerged() {
        var clock = HybridClock(maxAheadMillis: 1_000)
        let remote = HLC(physicalMillis: 11_000, logical: 0)
        #expect(clock.observe(remote, nowMillis: 10_000) == .merged)
        #expect(clock.last == remote)
    }

    @Test func remoteTenYearsAheadIsRefusedAndDoesNotMoveTheClock() {
        let now: UInt64 = 1_750_000_000_000
        let tenYears: UInt64 = 10 * 365 * 24 * 3_600 * 1_000
        var clock = HybridClock()
        let local = clock.tick(nowMillis: now)
        let remote = HLC(physicalMillis: now + tenYears, logical: 0)
        #expect(clock.observe(remote, nowMillis: now) == .tooFarAhead(byMillis: tenYears))
        #expect(clock.last == local)
        #expect(clock.tick(nowMillis: now + 1) == HLC(physicalMillis: now + 1, logical: 0))
    }

    @Test func justOverTheBoundIsRefused() {
        var clock = HybridClock(maxAheadMillis: 1_000)
        #expect(
            clock.observe(HLC(physicalMillis: 11_001, logical: 0), nowMillis: 10_000) == .tooFarAhead(byMillis: 1_001)
        )
        #expect(clock.last == .zero)
    }
}
