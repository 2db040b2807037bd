import Testing

@testable import MusterDaemon

@Suite("NotFoundTally")
struct NotFoundTallyTests {
    @Test func theFirstOfAMinuteIsRecordedAndTheRestHeld() {
        var tally = NotFoundTally()
        let minute: Int64 = 1_795_338_000_000
        #expect(tally.attempt(atMillis: minute + 5).recordNow)
        for second in 1...40 { #expect(!tally.attempt(atMillis: minute + Int64(second) * 1_000).recordNow) }
        #expect(tally.due(nowMillis: minute + 59_999) == nil, "the minute is not over")
        #expect(tally.due(nowMillis: minute + 60_000) == .init(windowStart: minute, count: 40))
        #expect(tally.due(nowMillis: minute + 60_000) == nil, "taken once")
    }

    @Test func theNextMinuteFlushesThePrevious() {
        var tally = NotFoundTally()
        let minute: Int64 = 1_795_338_000_000
        _ = tally.attempt(atMillis: minute)
        _ = tally.attempt(atMillis: minute + 1)
        _ = tally.attempt(atMillis: minute + 2)
        let next = tally.attempt(atMillis: minute + 61_000)
        #expect(next.recordNow)
        #expect(next.flush == .init(windowStart: minute, count: 2))
        #expect(tally.due(nowMillis: minute + 61_000, force: true) == nil, "nothing held after a first")
    }

    @Test func windowsAlignOnMinutes() {
        #expect(NotFoundTally.window(of: 119_999) == 60_000)
        #expect(NotFoundTally.window(of: 120_000) == 120_000)
    }
}
