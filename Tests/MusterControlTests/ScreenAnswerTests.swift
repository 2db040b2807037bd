import Foundation
import MusterControl
import MusterCore
import MusterRules
import MusterTestSupport
import Testing

/// The public screen's answers (issue 14, issue 33 item 4): made of staff's answers, they carry only what
/// the screen shows, because their types have nowhere to put anything else.
@Suite("ScreenAnswer")
struct ScreenAnswerTests {
    static let ada = AttendeeSummary.sample(campaign: "c")
    static let elsewhere = PresenceSummary(atMillis: 9, kioskName: "Hall B", location: "VIP door")

    static func json(_ answer: ScreenAnswer) throws -> String {
        String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
    }

    @Test func theScreenIsToldOnlyWhatTheScreenShows() throws {
        let already = ControlResponse.alreadyCheckedIn(
            AlreadyInAnswer(attendee: Self.ada, checkIn: Self.elsewhere, message: nil, reason: .alreadyInside)
        )
        guard case .alreadyCheckedIn(let shown) = ScreenAnswer(already, handles: .test) else {
            Issue.record("not an already-in answer")
            return
        }
        #expect(
            shown.attendee
                == ScreenAttendee(
                    campaignID: "c",
                    handle: ScreenHandles.test.handle(for: "ada@example.com"),
                    firstName: "Ada",
                    lastInitial: "L"
                )
        )
        #expect(shown.atMillis == 9, "when, never where")
        #expect(MaskedName.of(firstName: shown.attendee.firstName, lastName: shown.attendee.lastInitial) == "Ada L.")
        let json = try Self.json(ScreenAnswer(already, handles: .test))
        for secret in ["Lovelace", "Analytical", "MUS-0001", "Hall B", "VIP door", "ada@example.com", "example.com"] {
            #expect(!json.contains(secret), "\(secret) in \(json)")
        }
        // The note and badge name the attendee by a handle only this daemon can turn back into the key.
        #expect(json.contains(ScreenHandles.test.handle(for: "ada@example.com")))
        #expect(
            ScreenHandles.test.handle(for: "ada@example.com") != ScreenHandles.random().handle(for: "ada@example.com")
        )
    }

    @Test func aWalkInSeesTheirOwnNewTicketOnly() throws {
        let walkIn = ControlResponse.registered(
            WalkInAnswer(ticket: "W-ABCD1234", attendee: .sample(ticket: "W-ABCD1234"), checkIn: Self.elsewhere)
        )
        guard case .registered(let welcome, let ticket) = ScreenAnswer(walkIn, handles: .test) else {
            Issue.record("not a walk-in's answer")
            return
        }
        #expect(ticket == "W-ABCD1234" && welcome.atMillis == 9)
        let refused = ScreenAnswer(
            .refused(RefusalAnswer("Closed.", reason: .outsideWindow, attendee: Self.ada)),
            handles: .test
        )
        #expect(try !Self.json(refused).contains("MUS-0001"))
    }

    /// Staff's answers to requests the screen may not send have no screen form.
    @Test func staffsAnswersAreNoScreenAnswers() {
        let staffOnly: [ControlResponse] = [
            .checkedOut(Self.ada), .notCheckedIn(Self.ada), .head(seq: 1, hash: [1]), .submitted(.applied(1)),
            .status(
                StatusAnswer(
                    kioskName: "k",
                    kioskKey: "ab",
                    peers: ["ab@10.0.0.9:1"],
                    peerDetails: [],
                    keyGeneration: 0
                )
            ),
            .pong(PongAnswer(kioskName: "k", kioskKey: "ab", peers: [])),
        ]
        for response in staffOnly {
            guard case .failure(let failure) = ScreenAnswer(response, handles: .test) else {
                Issue.record("\(response.outcome) reached the screen")
                continue
            }
            #expect(failure.code == .internal && !failure.message.contains("Lovelace"))
        }
    }

    /// Every field of every type the screen is told, by name: a new one fails this test until someone
    /// decides it is the screen's to know. There is no company, email, ticket (but a walk-in's own new
    /// one, a case of its own), last name, kiosk name (but this kiosk's own, on the banner) or place.
    @Test func theScreensTypesHaveNoFieldForAnotherAttendeesData() {
        let attendee = ScreenAttendee(Self.ada, handles: .test)
        let fields: [(Any, Set<String>)] = [
            (attendee, ["campaignID", "handle", "firstName", "lastInitial"]),
            // The party: how many others of the order wait (a count, never who).
            (ScreenWelcome(attendee: attendee, atMillis: 1), ["attendee", "atMillis", "message", "party"]),
            (ScreenPartyAnswer(admitted: 1, refused: 0), ["admitted", "refused"]),
            (
                ScreenAlreadyIn(attendee: attendee, atMillis: 1, message: nil),
                ["attendee", "atMillis", "message", "reason"]
            ),
            (ScreenRefusal("no"), ["message", "reason", "attendee"]),
            (ScreenMatch(maskedName: "Ada L.", admitted: true), ["maskedName", "admitted", "checkedInAtMillis"]),
            // A session door (issue 36): the session's name and end, whether a spot is open (never its code).
            (
                ScreenContext(kioskName: "Hall A"),
                [
                    "kioskName", "campaignName", "language", "refusal", "solitude", "sessionDoor", "session",
                    "sessionUntilMillis", "spotOpen",
                ]
            ),
            // Working alone: since when, and this kiosk's own zone if that is what it cannot hear.
            (Solitude(sinceMillis: 1, unheardZone: "Hall B"), ["sinceMillis", "unheardZone"]),
            (ControlFailure(.forbidden, "no"), ["code", "message", "retryAfterSeconds"]),
        ]
        for (value, expected) in fields {
            let labels = Set(Mirror(reflecting: value).children.compactMap(\.label))
            #expect(labels == expected, "\(type(of: value))")
        }
    }
}
