import MusterTime
import Testing

@testable import MusterStore

private func lock(
    campaign: String? = "camp-1",
    status: String = "Attended",
    opens: Int64? = nil,
    closes: Int64? = nil
) -> LockState {
    LockState(
        version: 3,
        campaignID: campaign,
        campaignName: campaign.map { "Name of \($0)" },
        checkInStatus: status,
        opensAtMillis: opens,
        closesAtMillis: closes
    )
}

@Suite("CheckInPolicy")
struct CheckInPolicyTests {
    let now: UInt64 = 1_795_338_000_000

    @Test func noLockRefusesWithWaitingMessage() {
        let decision = CheckInPolicy.window(lock: nil, nowMillis: now)
        #expect(decision == .refuse("This kiosk is waiting for the organizer to pick the event."))
    }

    @Test func unlockedRefusesWithWaitingMessage() {
        guard case .refuse(let message) = CheckInPolicy.window(lock: lock(campaign: nil), nowMillis: now) else {
            Issue.record("an unlocked kiosk allowed check-in")
            return
        }
        #expect(message.contains("waiting for the organizer"))
    }

    @Test func beforeOpeningRefusesWithOpens() {
        let opens = Int64(now) + 60_000
        guard case .refuse(let message) = CheckInPolicy.window(lock: lock(opens: opens), nowMillis: now) else {
            Issue.record("check-in allowed before it opens")
            return
        }
        #expect(message.contains("opens"))
        #expect(message.contains(ClockText.time(millis: opens)))
    }

    @Test func atOrAfterClosingRefusesWithClosed() {
        for closes in [Int64(now), Int64(now) - 1, Int64(now) - 3_600_000] {
            guard case .refuse(let message) = CheckInPolicy.window(lock: lock(closes: closes), nowMillis: now) else {
                Issue.record("check-in allowed after closing at \(closes)")
                continue
            }
            #expect(message.contains("closed"))
            #expect(message.contains(ClockText.time(millis: closes)))
        }
    }

    @Test func insideTheWindowAllowsWithTheLockStatus() {
        let opens = Int64(now) - 1
        let closes = Int64(now) + 1
        #expect(
            CheckInPolicy.window(lock: lock(status: "Attended", opens: opens, closes: closes), nowMillis: now)
                == .allow(campaignID: "camp-1", memberStatus: "Attended")
        )
        #expect(
            CheckInPolicy.window(lock: lock(status: "Responded"), nowMillis: now)
                == .allow(campaignID: "camp-1", memberStatus: "Responded")
        )
        // Opening time is inclusive.
        #expect(
            CheckInPolicy.window(lock: lock(opens: Int64(now)), nowMillis: now)
                == .allow(campaignID: "camp-1", memberStatus: "Attended")
        )
    }

    @Test func nowBeyondInt64IsClampedNotTrapped() {
        let decision = CheckInPolicy.window(lock: lock(closes: Int64.max), nowMillis: UInt64.max)
        guard case .refuse(let message) = decision else {
            Issue.record("check-in allowed at the end of time")
            return
        }
        #expect(message.contains("closed"))
    }
}
