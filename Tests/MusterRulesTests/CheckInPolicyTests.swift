import MusterTestSupport
import MusterTime
import Testing

@testable import MusterRules

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

/// The sentence of the policy's refusal for `lock` at `now`, or nil when it allows the check-in.
private func refusal(_ lock: LockState?, at now: UInt64) -> String? {
    guard case .refuse(let message) = CheckInPolicy.window(lock: lock, nowMillis: now) else { return nil }
    return message
}

@Suite("CheckInPolicy")
struct CheckInPolicyTests {
    let now: UInt64 = 1_795_338_000_000

    @Test func noLockRefusesWithWaitingMessage() {
        let decision = CheckInPolicy.window(lock: nil, nowMillis: now)
        #expect(decision == .refuse("This kiosk is waiting for the organizer to pick the event."))
    }

    @Test func unlockedRefusesWithWaitingMessage() throws {
        let message = try #require(refusal(lock(campaign: nil), at: now), "an unlocked kiosk allowed check-in")
        #expect(message.contains("waiting for the organizer"))
    }

    @Test func beforeOpeningRefusesWithOpens() throws {
        let opens = Int64(now) + 60_000
        let message = try #require(refusal(lock(opens: opens), at: now), "check-in allowed before it opens")
        #expect(message.contains("opens"))
        #expect(message.contains(ClockText.time(millis: opens)))
    }

    @Test func atOrAfterClosingRefusesWithClosed() {
        for closes in [Int64(now), Int64(now) - 1, Int64(now) - 3_600_000] {
            guard let message = refusal(lock(closes: closes), at: now) else {
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

    @Test func nowBeyondInt64IsClampedNotTrapped() throws {
        let message = try #require(
            refusal(lock(closes: Int64.max), at: UInt64.max),
            "check-in allowed at the end of time"
        )
        #expect(message.contains("closed"))
    }
}
