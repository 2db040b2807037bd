import MusterControl
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterDaemon

/// The screen's note and badge bind to the attendee of its own last check-in (issue 32), in virtual time.
@Suite("ScreenBinding")
struct ScreenBindingTests {
    /// A request of `op` from the screen, naming the attendee `key` where the request names one.
    static func request(_ op: ControlRequest.Operation, key: String = "") -> ControlRequest {
        switch op {
        case .note: .note(attendeeKey: key, text: "Hello")
        case .badge: .badge(BadgeOrder(attendee: .key(key)))
        case .checkIn: .checkIn(query: "MUS-0001")
        case .register: .register(WalkInRegistration(firstName: "A", lastName: "L", email: "a@example.com"))
        case .lookup: .lookup(query: "MUS-0001")
        default: preconditionFailure("the screen does not send \(op)")
        }
    }

    static func checkedIn(_ key: String, _ outcome: ControlResponse.Outcome = .checkedIn) -> ControlResponse {
        let attendee = AttendeeSummary(
            campaignID: "c1",
            key: key,
            firstName: "A",
            lastName: "L",
            company: "",
            ticket: nil
        )
        let here = PresenceSummary(atMillis: 1, kioskName: "Hall A", location: "")
        switch outcome {
        case .checkedIn: return .checkedIn(CheckInAnswer(attendee: attendee, checkIn: here))
        case .registered: return .registered(WalkInAnswer(ticket: "W-1", attendee: attendee, checkIn: here))
        case .alreadyCheckedIn:
            return .alreadyCheckedIn(AlreadyInAnswer(attendee: attendee, checkIn: here, message: nil))
        default: preconditionFailure("\(outcome) names no attendee checked in")
        }
    }

    @Test func nothingIsBoundBeforeACheckIn() {
        let binding = ScreenBinding(window: .seconds(60))
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .zero))
        #expect(!binding.allows(Self.request(.badge, key: "ada@example.com"), at: .zero))
        #expect(binding.allows(Self.request(.lookup), at: .zero), "other requests are not this rule's business")
    }

    @Test func aCheckInBindsItsAttendeeForOneNoteWithinTheWindow() {
        var binding = ScreenBinding(window: .seconds(60))
        binding.record(Self.request(.checkIn), answer: Self.checkedIn("ada@example.com"), at: .seconds(10))
        #expect(!binding.allows(Self.request(.note, key: "grace@example.com"), at: .seconds(11)))
        #expect(binding.allows(Self.request(.badge, key: "ada@example.com"), at: .seconds(11)))
        // The badge answer keeps the note open for another window.
        binding.record(
            Self.request(.badge, key: "ada@example.com"),
            answer: .badgePrinted(.sample(key: "ada@example.com"), job: 1),
            at: .seconds(65)
        )
        #expect(binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(120)))
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(126)), "too late")
        binding.record(Self.request(.note, key: "ada@example.com"), answer: .noted, at: .seconds(120))
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(120)), "one note")
    }

    /// The screen names the bound attendee by handle, never by key: the handle becomes the key; another
    /// attendee's handle, or a key the screen guessed, stays as it came and is refused.
    @Test func theBoundAttendeesHandleBecomesTheirKey() {
        var binding = ScreenBinding(window: .seconds(60))
        let handles = ScreenHandles.test
        let ada = handles.handle(for: "ada@example.com")
        #expect(binding.resolve(Self.request(.note, key: ada), handles: handles) == Self.request(.note, key: ada))
        binding.record(Self.request(.checkIn), answer: Self.checkedIn("ada@example.com"), at: .seconds(10))
        for op in [ControlRequest.Operation.note, .badge] {
            let resolved = binding.resolve(Self.request(op, key: ada), handles: handles)
            #expect(resolved == Self.request(op, key: "ada@example.com"))
            #expect(binding.allows(resolved, at: .seconds(11)))
            let grace = binding.resolve(
                Self.request(op, key: handles.handle(for: "grace@example.com")),
                handles: handles
            )
            #expect(!binding.allows(grace, at: .seconds(11)))
        }
        // Another run's handle for the same attendee names no one here.
        let stale = binding.resolve(
            Self.request(.note, key: ScreenHandles.random().handle(for: "ada@example.com")),
            handles: handles
        )
        #expect(!binding.allows(stale, at: .seconds(11)))
    }

    @Test func aRegistrationBindsTheWalkInAndAFailedCheckInBindsNoOne() {
        var binding = ScreenBinding(window: .seconds(60))
        binding.record(Self.request(.register), answer: Self.checkedIn("new@example.org", .registered), at: .zero)
        #expect(binding.allows(Self.request(.note, key: "new@example.org"), at: .zero))
        binding.record(Self.request(.checkIn), answer: Self.checkedIn("ada@example.com", .alreadyCheckedIn), at: .zero)
        #expect(binding.allows(Self.request(.note, key: "new@example.org"), at: .zero), "unchanged")
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .zero))
    }
}
