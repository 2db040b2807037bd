import MusterSync
import Testing

@testable import MusterDaemon

/// What discovery makes the daemon dial, and for how long.
struct DialPlanTests {
    static func target(_ port: Int, host: String = "10.77.0.9") -> DialPlan.Target { .init(host: host, port: port) }

    @Test func aServiceIsDialedUntilItDisappears() {
        var plan = DialPlan()
        #expect(plan.appeared(service: "k2", at: Self.target(7420), now: .zero) == [.dial(Self.target(7420))])
        #expect(plan.appeared(service: "k2", at: Self.target(7420), now: .zero) == [])
        #expect(plan.disappeared(service: "k2") == [.stop(Self.target(7420))])
        #expect(plan.trackedCount == 0)
        #expect(plan.disappeared(service: "k2") == [])
    }

    @Test func anAddressNamedByTwoServicesStopsWhenBothAreGone() {
        var plan = DialPlan()
        #expect(plan.appeared(service: "a", at: Self.target(1), now: .zero) == [.dial(Self.target(1))])
        #expect(plan.appeared(service: "b", at: Self.target(1), now: .zero) == [])
        #expect(plan.disappeared(service: "a") == [])
        #expect(plan.disappeared(service: "b") == [.stop(Self.target(1))])
    }

    @Test func aServiceThatMovesIsDialedAtItsNewAddressOnly() {
        var plan = DialPlan()
        _ = plan.appeared(service: "k3", at: Self.target(1), now: .zero)
        #expect(
            plan.appeared(service: "k3", at: Self.target(2), now: .zero) == [
                .stop(Self.target(1)), .dial(Self.target(2)),
            ]
        )
        #expect(plan.trackedCount == 1)
    }

    @Test func anAddressThatGaveUpRestsThenIsDialedAgainIfStillAnnounced() {
        var plan = DialPlan(limits: .init(maxTargets: 8, giveUpAfter: 8, rest: .seconds(60)))
        _ = plan.appeared(service: "k4", at: Self.target(1), now: .zero)
        #expect(plan.dialEnded(Self.target(1), .gaveUp(failures: 8), now: .seconds(20)) == [])
        #expect(plan.dialingCount == 0)
        #expect(plan.tick(now: .seconds(79)) == [])
        #expect(plan.tick(now: .seconds(80)) == [.dial(Self.target(1))])
        // Gone while resting: nothing runs, nothing to stop.
        _ = plan.dialEnded(Self.target(1), .gaveUp(failures: 8), now: .seconds(100))
        #expect(plan.disappeared(service: "k4") == [])
        #expect(plan.tick(now: .seconds(1_000)) == [])
    }

    @Test func stoppedThenAnnouncedAgainIsDialedAgain() {
        var plan = DialPlan()
        _ = plan.appeared(service: "k5", at: Self.target(1), now: .zero)
        _ = plan.disappeared(service: "k5")
        _ = plan.appeared(service: "k5", at: Self.target(1), now: .zero)
        // The old loop ended on the stop after the new dial was asked for (and merged into it).
        #expect(plan.dialEnded(Self.target(1), .stopped, now: .seconds(1)) == [.dial(Self.target(1))])
    }

    @Test func aThousandAnnouncementsCostAtMostMaxTargetsDials() {
        var plan = DialPlan()
        var dials = 0
        for index in 0..<1_000 {
            let actions = plan.appeared(
                service: "fake-\(index)",
                at: Self.target(20_000 + index, host: "127.0.0.1"),
                now: .zero
            )
            dials += actions.count { if case .dial = $0 { true } else { false } }
        }
        #expect(dials == DialPlan.Limits.standard.maxTargets)
        #expect(plan.ignored == 1_000 - DialPlan.Limits.standard.maxTargets)
        #expect(plan.trackedCount == DialPlan.Limits.standard.maxTargets)
    }

    @Test func whenFullANewAddressTakesThePlaceOfOneThatGaveUp() {
        var plan = DialPlan(limits: .init(maxTargets: 2, giveUpAfter: 8, rest: .seconds(60)))
        _ = plan.appeared(service: "dead", at: Self.target(1), now: .zero)
        _ = plan.appeared(service: "live", at: Self.target(2), now: .zero)
        #expect(plan.appeared(service: "new", at: Self.target(3), now: .zero) == [])
        #expect(plan.ignored == 1)
        _ = plan.dialEnded(Self.target(1), .gaveUp(failures: 8), now: .seconds(30))
        #expect(plan.appeared(service: "newer", at: Self.target(4), now: .seconds(31)) == [.dial(Self.target(4))])
        #expect(plan.trackedCount == 2)
        // The evicted address is forgotten with its services.
        #expect(plan.disappeared(service: "dead") == [])
        #expect(plan.tick(now: .seconds(1_000)) == [])
    }
}
