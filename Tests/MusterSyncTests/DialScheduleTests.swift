import Testing

@testable import MusterSync

/// When a dial loop tries again, and when it ends.
struct DialScheduleTests {
    @Test func backsOffFrom250msTo5sThenGivesUp() {
        var schedule = DialSchedule(maxFailures: 8)
        let actions = (0..<8).map { _ in schedule.attempted(.failed) }
        #expect(
            actions == [
                .retry(after: .milliseconds(250)), .retry(after: .milliseconds(500)), .retry(after: .seconds(1)),
                .retry(after: .seconds(2)), .retry(after: .seconds(4)), .retry(after: .seconds(5)),
                .retry(after: .seconds(5)), .end(.gaveUp(failures: 8)),
            ]
        )
    }

    @Test func aSessionResetsTheCount() {
        var schedule = DialSchedule(maxFailures: 3)
        _ = schedule.attempted(.failed)
        _ = schedule.attempted(.failed)
        #expect(schedule.attempted(.established) == .retry(after: .milliseconds(250)))
        #expect(schedule.failures == 0)
        _ = schedule.attempted(.failed)
        _ = schedule.attempted(.failed)
        #expect(schedule.attempted(.failed) == .end(.gaveUp(failures: 3)))
    }

    @Test func staticPeersAreDialedForever() {
        var schedule = DialSchedule(maxFailures: nil)
        for _ in 0..<1_000 { #expect(schedule.attempted(.failed) != .end(.gaveUp(failures: 1_000))) }
        #expect(schedule.attempted(.failed) == .retry(after: .seconds(5)))
    }

    @Test func aStoppedLoopEndsBeforeItsNextDial() {
        var schedule = DialSchedule(maxFailures: 8)
        #expect(schedule.shouldDial)
        schedule.stop()
        #expect(!schedule.shouldDial)
        #expect(schedule.attempted(.established) == .end(.stopped))
        var connected = DialSchedule(maxFailures: 8)
        #expect(connected.attempted(.alreadyConnected) == .retry(after: DialSchedule.connectedRecheck))
        connected.stop()
        #expect(connected.attempted(.alreadyConnected) == .end(.stopped))
    }

    @Test func announcedAgainBeforeItEndedTheLoopGoesOn() {
        var schedule = DialSchedule(maxFailures: 2)
        _ = schedule.attempted(.failed)
        schedule.stop()
        schedule.resume()
        #expect(schedule.shouldDial)
        #expect(schedule.attempted(.failed) == .retry(after: .milliseconds(500)))
    }

    @Test func aConnectedAddressIsNotAFailure() {
        var schedule = DialSchedule(maxFailures: 1)
        for _ in 0..<10 { #expect(schedule.attempted(.alreadyConnected) == .retry(after: .seconds(5))) }
    }

    /// A kiosk the core does not want a session with is looked at again like a connected one: no
    /// failure counted, no backoff grown, and the loop still ends when its service disappears.
    @Test func anUnwantedAddressWaitsWithoutFailing() {
        var schedule = DialSchedule(maxFailures: 1)
        for _ in 0..<10 { #expect(schedule.attempted(.notWanted) == .retry(after: DialSchedule.connectedRecheck)) }
        #expect(schedule.backoff == DialSchedule.initialBackoff)
        schedule.stop()
        #expect(schedule.attempted(.notWanted) == .end(.stopped))
    }
}
