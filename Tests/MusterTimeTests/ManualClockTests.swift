import MusterTestSupport
import MusterTime
import Testing

@Suite struct ManualClockTests {
    @Test func advancingWakesSleepersInDeadlineOrder() async throws {
        let clock = ManualClock()
        let order = Locked<[String]>([])
        let late = Task {
            try await clock.sleep(for: .seconds(30))
            order.mutate { $0.append("late") }
        }
        let early = Task {
            try await clock.sleep(for: .seconds(15))
            order.mutate { $0.append("early") }
        }
        #expect(await clock.waitForSleepers(2))
        clock.advance(by: .seconds(14))
        #expect(clock.sleepers == 2, "no deadline has come after 14 s")
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(order.get() == ["early"])
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(15))
        try await late.value
        #expect(order.get() == ["early", "late"])
    }

    @Test func wallTimeMovesWithUptimeAndCanBeSet() {
        let clock = ManualClock(wallMillis: 1_000_000)
        clock.advance(by: .milliseconds(2_500))
        #expect(clock.uptime == .milliseconds(2_500))
        #expect(clock.wallMillis == 1_002_500)
        clock.setWall(millis: 5_000_000)
        #expect(clock.wallMillis == 5_000_000)
        #expect(clock.uptime == .milliseconds(2_500), "setting the wall clock leaves uptime alone")
        clock.advance(by: .seconds(1))
        #expect(clock.wallMillis == 5_001_000)
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        let clock = ManualClock(uptime: .seconds(10))
        try await clock.sleep(until: .seconds(3))
        #expect(clock.sleepers == 0)
    }

    @Test func cancellingASleeperThrowsAndForgetsIt() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
    }

    @Test func cancelledBeforeSleepingNeverSuspends() async throws {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
    }

    @Test func advanceToNextDeadlineJumpsToTheEarliestSleeper() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .milliseconds(1_500)) }
        #expect(await clock.waitForSleepers(1))
        #expect(clock.advanceToNextDeadline() == .milliseconds(1_500))
        try await sleeper.value
        #expect(clock.uptime == .milliseconds(1_500))
        #expect(clock.advanceToNextDeadline() == nil)
    }

    @Test func itIsASwiftClock() async throws {
        let clock = ManualClock()
        let any: any Clock<Duration> = clock
        let sleeper = Task { try await any.sleep(for: .seconds(2)) }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(2))
        try await sleeper.value
        #expect(clock.now.offset == .seconds(2))
    }
}

@Suite struct SystemTimeTests {
    @Test func uptimeIsMonotonicAndWallTimeIsPlausible() async throws {
        let time = SystemTime()
        let before = time.uptime
        try await time.sleep(for: .milliseconds(5))
        #expect(time.uptime - before >= .milliseconds(5))
        // 2020-01-01 and 2100-01-01: a reading outside means the conversion is wrong.
        #expect(time.wallMillis > 1_577_836_800_000 && time.wallMillis < 4_102_444_800_000)
    }
}
