import Foundation
import MusterControl
import MusterDaemon
import MusterRules
import MusterTestSupport
import MusterTime
import Testing

@testable import MusterClient

/// The daemon's lookup brake against someone who holds the screen user's control socket and guesses
/// emails or ticket codes (issue 32, item 13): a walk-in registration no longer forgives a miss, and
/// `register` is braked like `lookup`, so neither is a way around the brake nor an unbraked email
/// oracle. Real uids (`setpriv` to `nobody`), the real socket, the real replica.
@Suite("Lookup brake against laundering (live socket, real uids)", .enabled(if: geteuid() == 0))
struct ControlBrakeLiveTests {
    typealias Policy = ControlPeerPolicyLiveTests

    static func register(_ email: String) -> ControlRequest {
        let request = ControlRequest.register(
            WalkInRegistration(firstName: "Walk", lastName: "In", email: email, company: "")
        )
        return request
    }

    /// A daemon whose screen user is `nobody`, braking after 2 free misses for 4 s, forgiving by time
    /// only after 600 s, with the two attendees of ``LiveDaemon/importAndLock(campaignID:lock:)``.
    static func daemon(clock: ManualClock) async throws -> LiveDaemon {
        let daemon = try LiveDaemon()
        try await daemon.start(gate: Policy.gate(screenUID: Policy.nobody, clock: clock))
        try await daemon.importAndLock()
        try Policy.openToNobody(daemon)
        return daemon
    }

    static func attendee(_ daemon: LiveDaemon, _ query: String) throws -> AttendeeRecord? {
        try daemon.replica.view { try $0.lookup(campaignID: "c0ffee0000000001", query: query) }
    }

    /// After the brake, the honest screen's flow goes through once the wait is over: the attendee is
    /// looked up, checked in, and the replica holds the check-in. So the test cannot pass by nothing
    /// arriving at all.
    static func honestCheckInArrives(_ daemon: LiveDaemon, clock: ManualClock) async throws {
        let checkedInBefore = try daemon.replica.status().checkedIn
        clock.advance(by: .seconds(600))
        let answers = try await Policy.asNobody(
            daemon,
            [Policy.request(.lookup, query: "MUS-0002"), Policy.request(.checkIn, query: "MUS-0002")]
        )
        #expect(answers.map(\.outcome) == [.found, .checkedIn], "\(answers)")
        #expect(try daemon.replica.status().checkedIn == checkedInBefore + 1)
    }

    @Test("a throwaway walk-in after each miss no longer launders the brake")
    func walkInsDoNotLaunderMisses() async throws {
        let clock = ManualClock()
        let daemon = try await Self.daemon(clock: clock)
        var requests: [ControlRequest] = []
        for guess in 1...6 {
            requests.append(Policy.request(.lookup, query: "MUS-99\(guess)"))
            requests.append(Self.register("throwaway\(guess)@example.net"))
        }
        let answers = try await Policy.asNobody(daemon, requests)
        #expect(answers.count == requests.count)
        let firstBraked = try #require(
            answers.firstIndex { $0.errorCode == .rateLimited },
            "the brake never started: \(answers.map(\.outcome))"
        )
        // Two free misses (the first guess, and a walk-in of an email that was not the one looked up);
        // the second guess is the third miss and starts the wait.
        #expect(firstBraked == 3, "\(answers.map(\.outcome))")
        #expect(answers[..<firstBraked].map(\.outcome) == [.notFound, .registered, .notFound])
        for answer in answers[firstBraked...] {
            #expect(answer.errorCode == .rateLimited, "every attempt after the brake is refused: \(answer)")
            #expect(answer.maskedName == nil && answer.attendee == nil && answer.ticket == nil)
        }
        // Nothing of the refused walk-ins reached the replica: only the ones answered before the brake.
        let registered = answers.count { $0.outcome == .registered }
        #expect(registered == 1)
        let status = try daemon.replica.status()
        #expect(status.walkIns == registered && status.attendees == 2 + registered && status.checkedIn == registered)
        for guess in 2...6 {
            #expect(try Self.attendee(daemon, "throwaway\(guess)@example.net") == nil)
        }
        try await Self.honestCheckInArrives(daemon, clock: clock)
    }

    @Test("register is braked: it is no unbraked way to learn which emails are on the list")
    func registerIsBraked() async throws {
        let clock = ManualClock()
        let daemon = try await Self.daemon(clock: clock)
        let probes = ["eve1@example.net", "eve2@example.net", "eve3@example.net", "ada@example.com"]
        let answers = try await Policy.asNobody(daemon, probes.map(Self.register))
        #expect(answers.map(\.outcome) == [.registered, .registered, .registered, .error], "\(answers)")
        #expect(answers[3].errorCode == .rateLimited && answers[3].retryAfterSeconds == 4)
        // The braked probe of a listed email learned nothing and changed nothing: Ada is not checked in.
        #expect(answers[3].attendee == nil && answers[3].message?.contains("already registered") != true)
        let status = try daemon.replica.status()
        #expect(status.walkIns == 3 && status.checkedIn == 3 && status.attendees == 5)
        let ada = try #require(try Self.attendee(daemon, "ada@example.com"))
        #expect(ada.firstArrival == nil, "the braked register did not check Ada in")
        try await Self.honestCheckInArrives(daemon, clock: clock)
    }

    @Test("an honest walk-in costs one miss: its email's lookup, not the registration that follows")
    func honestWalkInCountsOnce() async throws {
        let clock = ManualClock()
        let daemon = try await Self.daemon(clock: clock)
        // The screen's walk-in flow, twice: the email is looked up (not found), then registered.
        let flow = ["new1@example.org", "new2@example.org"].flatMap {
            [Policy.request(.lookup, query: $0), Self.register($0)]
        }
        let answers = try await Policy.asNobody(daemon, flow)
        #expect(answers.map(\.outcome) == [.notFound, .registered, .notFound, .registered], "\(answers)")
        #expect(try daemon.replica.status().walkIns == 2)
        try await Self.honestCheckInArrives(daemon, clock: clock)
    }
}
