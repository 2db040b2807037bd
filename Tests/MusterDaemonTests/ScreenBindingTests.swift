import MusterControl
import MusterStore
import Testing

@testable import MusterDaemon

/// The screen's note and badge bind to the attendee of its own last check-in (issue 32), in virtual time.
@Suite("ScreenBinding")
struct ScreenBindingTests {
    static func request(_ op: ControlRequest.Operation, key: String? = nil) -> ControlRequest {
        var request = ControlRequest(op: op)
        request.attendeeKey = key
        return request
    }

    static func checkedIn(_ key: String, _ outcome: ControlResponse.Outcome = .checkedIn) -> ControlResponse {
        var response = ControlResponse(outcome: outcome)
        response.attendee = AttendeeSummary(
            campaignID: "c1",
            key: key,
            firstName: "A",
            lastName: "L",
            company: "",
            ticket: nil
        )
        return response
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
            answer: .init(outcome: .badgePrinted),
            at: .seconds(65)
        )
        #expect(binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(120)))
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(126)), "too late")
        binding.record(Self.request(.note, key: "ada@example.com"), answer: .init(outcome: .noted), at: .seconds(120))
        #expect(!binding.allows(Self.request(.note, key: "ada@example.com"), at: .seconds(120)), "one note")
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
