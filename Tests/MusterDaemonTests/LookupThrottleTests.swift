import MusterControl
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterDaemon

/// The daemon's brake on lookups by peers that are not staff (issue 14), in virtual time.
@Suite("LookupThrottle")
struct LookupThrottleTests {
    static let settings = LookupThrottle.Settings(
        freeMisses: 3,
        firstBackoff: .seconds(2),
        maxBackoff: .seconds(16),
        forgiveEvery: .seconds(20)
    )

    @Test func freeMissesThenWaitsThatDouble() {
        var throttle = LookupThrottle(settings: Self.settings)
        var now = Duration.seconds(100)
        for _ in 0..<3 {
            #expect(throttle.admit(at: now) == .allow)
            throttle.recordMiss(at: now)
        }
        #expect(throttle.admit(at: now) == .allow, "three misses are free")
        throttle.recordMiss(at: now)
        #expect(throttle.admit(at: now) == .wait(.seconds(2)))
        #expect(throttle.admit(at: now + .seconds(1)) == .wait(.seconds(1)))
        now += .seconds(2)
        #expect(throttle.admit(at: now) == .allow)
        throttle.recordMiss(at: now)
        #expect(throttle.admit(at: now) == .wait(.seconds(4)))
        #expect(
            (5...9).map(throttle.backoff(afterMisses:)) == [
                .seconds(4), .seconds(8), .seconds(16), .seconds(16), .seconds(16),
            ]
        )
        #expect(throttle.backoff(afterMisses: 3) == .zero)
    }

    @Test func missesAreForgivenOneAtATime() {
        var throttle = LookupThrottle(settings: Self.settings)
        for _ in 0..<3 { throttle.recordMiss(at: .seconds(10)) }
        #expect(throttle.misses == 3)
        #expect(throttle.admit(at: .seconds(29)) == .allow)
        #expect(throttle.misses == 3)
        _ = throttle.admit(at: .seconds(30))
        #expect(throttle.misses == 2)
        _ = throttle.admit(at: .seconds(75))
        #expect(throttle.misses == 0)
        // An occasional typo never adds up to a wait.
        for minute in 1...30 {
            let now = Duration.seconds(100 + minute * 60)
            #expect(throttle.admit(at: now) == .allow)
            throttle.recordMiss(at: now)
        }
    }

    static func request(_ op: ControlRequest.Operation, _ query: String) -> ControlRequest {
        switch op {
        case .register: .register(WalkInRegistration(firstName: "Walk", lastName: "In", email: query))
        case .checkIn: .checkIn(query: query)
        case .lookup: .lookup(query: query)
        default: preconditionFailure("\(op) is not braked")
        }
    }

    @Test func onlyTheCheckInOfAFoundTicketForgivesAMiss() {
        var throttle = LookupThrottle(settings: Self.settings)
        let now = Duration.seconds(1)
        for guess in 1...3 { throttle.record(Self.request(.lookup, "MUS-99\(guess)"), answer: .notFound, at: now) }
        #expect(throttle.misses == 3)
        // A walk-in of another email is a miss, not a pardon.
        throttle.record(Self.request(.register, "throwaway@example.net"), answer: .registered, at: now)
        #expect(throttle.misses == 4)
        // A check-in of a ticket nobody looked up, or one answered "already checked in", forgives nothing.
        throttle.record(Self.request(.checkIn, "MUS-0001"), answer: .checkedIn, at: now)
        throttle.record(Self.request(.lookup, "MUS-0002"), answer: .found, at: now)
        throttle.record(Self.request(.checkIn, "MUS-0002"), answer: .alreadyCheckedIn, at: now)
        #expect(throttle.misses == 4)
        // The check-in of the ticket just found forgives one, once.
        throttle.record(Self.request(.lookup, "MUS-0003"), answer: .found, at: now)
        throttle.record(Self.request(.checkIn, "MUS-0003"), answer: .checkedIn, at: now)
        throttle.record(Self.request(.checkIn, "MUS-0003"), answer: .checkedIn, at: now)
        #expect(throttle.misses == 3)
    }

    @Test func aWalkInCostsOneMissNotTwo() {
        var throttle = LookupThrottle(settings: Self.settings)
        let now = Duration.seconds(1)
        throttle.record(Self.request(.lookup, "new@example.org"), answer: .notFound, at: now)
        throttle.record(Self.request(.register, "new@example.org"), answer: .registered, at: now)
        #expect(throttle.misses == 1, "the registration of the email just looked up is not counted again")
        throttle.record(Self.request(.register, "new@example.org"), answer: .checkedIn, at: now)
        #expect(throttle.misses == 2, "only once")
    }

    @Test func theDaemonsBrakeIsLooserThanTheScreens() {
        let options = ScreenOptions.brake(freeMisses: 3, first: .seconds(2), max: .seconds(60))
        let settings = LookupThrottle.Settings(screen: options)
        #expect(settings.freeMisses == 6)
        #expect(settings.firstBackoff == .seconds(2) && settings.maxBackoff == .seconds(60))
    }

    @Test func theGateBrakesTheScreenButNotStaff() {
        let clock = ManualClock()
        let gate = ControlGate(
            roles: ControlPeerRoles(staffUIDs: [0], staffGID: nil, screenUID: 105),
            throttle: Self.settings,
            time: clock
        )
        let lookup = ControlRequest.lookup(query: "MUS-9999")
        let notFound = ControlResponse.notFound(RefusalAnswer("No ticket or email matches."))
        for _ in 0..<4 {
            #expect(gate.refusal(for: lookup, role: .screen) == nil)
            gate.answered(lookup, with: notFound, role: .screen)
        }
        let refused = gate.refusal(for: lookup, role: .screen)
        #expect(refused?.outcome == .error)
        #expect(refused?.errorCode == .rateLimited)
        #expect(refused?.retryAfterSeconds == 2)
        #expect(refused?.message?.contains("see staff") == true)
        #expect(refused?.message?.contains("MUS-9999") == false)
        let checkIn = ControlRequest.checkIn(query: "MUS-0001")
        #expect(gate.refusal(for: checkIn, role: .screen)?.errorCode == .rateLimited, "no way around by check-in")
        #expect(gate.refusal(for: lookup, role: .staff) == nil, "staff lookups are never limited")
        gate.answered(lookup, with: notFound, role: .staff)
        #expect(gate.refusal(for: ControlRequest.screen, role: .screen) == nil, "the lock is always shown")
        clock.advance(by: .seconds(2))
        #expect(gate.refusal(for: lookup, role: .screen) == nil)
        // Refused everything: an unknown peer is never even throttled, it is forbidden.
        #expect(gate.refusal(for: lookup, role: .other)?.errorCode == .forbidden)
        #expect(gate.role(of: nil) == .other)
        #expect(gate.role(of: ControlPeer(pid: 9, uid: 105, gid: 105)) == .screen)
    }

    /// Guessing a spot's code at the screen (issue 36) meets the same brake as guessing tickets.
    @Test func wrongSpotCodesFromTheScreenAreMisses() {
        let clock = ManualClock()
        let gate = ControlGate(
            roles: ControlPeerRoles(staffUIDs: [0], staffGID: nil, screenUID: 105),
            throttle: Self.settings,
            time: clock
        )
        let wrongCode = ControlResponse.refused(RefusalAnswer("No open session has this code.", reason: .wrongCode))
        for code in ["000001", "000002", "000003", "000004"] {
            let guess = ControlRequest.attend(query: "MUS-0001", code: code)
            #expect(gate.refusal(for: guess, role: .screen) == nil)
            gate.answered(guess, with: wrongCode, role: .screen)
        }
        let next = ControlRequest.attend(query: "MUS-0001", code: "000005")
        #expect(gate.refusal(for: next, role: .screen)?.errorCode == .rateLimited)
        #expect(gate.refusal(for: .lookup(query: "MUS-0002"), role: .screen)?.errorCode == .rateLimited, "one brake")
        #expect(gate.refusal(for: next, role: .staff) == nil, "staff are never limited")
        // A refusal that is no guess (not registered) costs nothing.
        let fresh = ControlGate(
            roles: ControlPeerRoles(staffUIDs: [0], staffGID: nil, screenUID: 105),
            throttle: Self.settings,
            time: clock
        )
        let notRegistered = ControlResponse.refused(RefusalAnswer("Registered only.", reason: .notRegistered))
        for _ in 0..<6 { fresh.answered(.attend(query: "MUS-0001", code: nil), with: notRegistered, role: .screen) }
        #expect(fresh.refusal(for: next, role: .screen) == nil)
    }
}
