import MusterControl
import MusterCore
import MusterRules

/// What each line of ``RecordedControlLines`` means as a typed value, index for index.
enum RecordedControlValues {
    static let d1 = WireDelta(envelope: "0a0b0c", signature: "0d0e0f")
    static let d2 = WireDelta(envelope: "1a1b1c", signature: "1d1e1f")
    static let author = AuthorID(bytes: [UInt8](repeating: 0xAB, count: 32))!

    static let requests: [ControlRequest] = [
        .checkIn(query: "ada.lovelace@example.com"),
        .checkOut(query: "MUS-0001"),
        .register(
            WalkInRegistration(firstName: "Walk", lastName: "Ín", email: "walk.in@example.org", company: "Ñandú GmbH")
        ),
        .register(WalkInRegistration(firstName: "Walk", lastName: "In", email: "walk.in@example.org")),
        .note(attendeeKey: "ada.lovelace@example.com", text: "Great keynote! 🎉 \"quoted\" a/b"),
        .head(author: author),
        .submit(OrganizerSubmission(deltas: [d1, d2])),
        .submit(OrganizerSubmission(deltas: [d1], step: .stage)),
        .submit(OrganizerSubmission(deltas: [d2], step: .apply(expectingStaged: 1))),
        .submit(OrganizerSubmission(deltas: [d1], certificate: d2, step: .stage)),
        .submit(OrganizerSubmission(deltas: [d1], certificate: d2, step: .apply(expectingStaged: 1))),
        .status,
        .ping,
        .screen,
        .badge(BadgeOrder(attendee: .key("ada.lovelace@example.com"), reason: .selfService)),
        .badge(BadgeOrder(attendee: .query("MUS-0001"), reason: .reprint)),
        .badge(BadgeOrder(attendee: .query("MUS-0001"), reason: .printOnly)),
        .lookup(query: " mus-0001 "),
        .replaceBadge(query: "ada.lovelace@example.com", restore: false),
        .replaceBadge(query: "MUS-0001", restore: true),
        .confirmCheckIn(query: "MUS-0001", staff: "Grace"),
        .redeem(addon: "T-shirt", query: "MUS-0001"),
        .checkInParty(query: "ABC12"),
        .attend(query: "MUS-0001", code: nil),
        .attend(query: "ada.lovelace@example.com", code: "031234"),
        .openSpot(name: "Lab meeting", seconds: 600),
    ]

    static let ada = AttendeeSummary(
        campaignID: "c0ffee0000000001",
        key: "ada.lovelace@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        company: "Analytical",
        ticket: "MUS-0001"
    )
    static let walkIn = AttendeeSummary(
        campaignID: "c0ffee0000000001",
        key: "walk.in@example.org",
        firstName: "Walk",
        lastName: "Ín",
        company: "Ñandú GmbH",
        ticket: "W-ABCD1234"
    )
    static let here = PresenceSummary(atMillis: 1_795_338_000_000, kioskName: "Hall A", location: "North door")
    static let elsewhere = PresenceSummary(atMillis: 1_795_337_000_000, kioskName: "Hall B", location: "VIP door")
    static let registered = "You are already registered for this event."
    static let kioskKey = String(repeating: "ef", count: 32)
    static let peerB = String(repeating: "12", count: 32)

    static let responses: [ControlResponse] = [
        .checkedIn(CheckInAnswer(attendee: ada, checkIn: here)),
        .checkedIn(CheckInAnswer(attendee: ada, checkIn: here, message: registered)),
        .alreadyCheckedIn(
            AlreadyInAnswer(
                attendee: ada,
                checkIn: elsewhere,
                message: "Already inside since 08:43.",
                reason: .alreadyInside
            )
        ),
        .alreadyCheckedIn(AlreadyInAnswer(attendee: ada, checkIn: elsewhere, message: registered)),
        .checkedOut(ada),
        .notCheckedIn(ada),
        .registered(WalkInAnswer(ticket: "W-ABCD1234", attendee: walkIn, checkIn: here)),
        .noted,
        .notFound(RefusalAnswer("No ticket or email matches.")),
        .notFound(RefusalAnswer("No ticket or email matches.", reason: .notFound)),
        .refused(RefusalAnswer("This kiosk is waiting for the organizer to pick the event.")),
        .refused(RefusalAnswer("Check-in at North door opens at 10:00.", reason: .outsideWindow, attendee: ada)),
        .refused(
            RefusalAnswer("This registration is not valid for check-in. Please see the staff desk.", attendee: ada)
        ),
        .head(seq: 42, hash: [UInt8](repeating: 0xCD, count: 32)),
        .submitted(.applied(5)),
        .submitted(.staged(500)),
        .status(
            StatusAnswer(
                kioskName: "Hall A",
                kioskKey: kioskKey,
                peers: [peerB + "@10.0.0.2:7420"],
                peerDetails: [
                    PeerDetail(
                        key: peerB,
                        name: "Hall B",
                        location: "VIP door",
                        address: "10.0.0.2:7420",
                        lastSeenMillis: 1_795_337_999_000,
                        behind: 2,
                        ahead: 0,
                        digestMatches: false,
                        deltasReceived: 10,
                        copiesReceived: 3
                    ),
                    PeerDetail(
                        key: String(repeating: "34", count: 32),
                        name: "Hall C",
                        location: "",
                        address: "10.0.0.3:7420",
                        lastSeenMillis: 1_795_337_998_000,
                        behind: 0,
                        ahead: 0,
                        digestMatches: nil
                    ),
                ],
                keyGeneration: 1
            )
        ),
        .screen(
            ScreenContext(
                kioskName: "Hall A",
                campaignName: "DevConf 2026",
                language: .german,
                refusal: "Check-in opens at 10:00."
            )
        ),
        .screen(ScreenContext(kioskName: "Hall Z")),
        .status(
            StatusAnswer(
                kioskName: "Hall A",
                kioskKey: kioskKey,
                peers: [],
                peerDetails: [],
                keyGeneration: 0,
                solitude: Solitude(sinceMillis: 1_795_337_990_000, unheardZone: "Hall B")
            )
        ),
        .screen(solitaryScreen),
        .pong(PongAnswer(kioskName: "Hall A", kioskKey: kioskKey, peers: [])),
        .failure(.badRequest, "missing query"),
        .error(
            ControlFailure(
                .rateLimited,
                "too many tickets or emails not found; please see staff (try again in 4 s)",
                retryAfterSeconds: 4
            )
        ),
        .error(ControlFailure(nil, "malformed control request")),
        .badgePrinted(ada, job: 17),
        .badgeNotPrinted(ada, message: "No printer is configured on this kiosk."),
        .badgeAlreadyPrinted(ada, message: "A badge was already printed (self-service); staff can print another."),
        .found(ScreenMatch(maskedName: "Ada L.", admitted: true)),
        .found(ScreenMatch(maskedName: "Grace H.", admitted: true, checkedInAtMillis: 1_795_337_000_000)),
        .found(ScreenMatch(maskedName: "Rita R.", admitted: false)),
        .badgeReplaced(ada, code: "R-0123ABCD"),
        .redeemed(ada, addon: "T-shirt"),
        .partyCheckedIn(
            PartyAnswer(
                admitted: [ada],
                refused: [PartyAnswer.Refused(attendee: walkIn, reason: "zone_full", message: "This area is full.")]
            )
        ),
        .attended(
            AttendanceAnswer(
                attendee: ada,
                session: "Swift on Linux",
                sessionID: "s-0123456789abcdef",
                direction: .left,
                at: PresenceSummary(atMillis: 1_795_337_000_000, kioskName: "k1", location: "Lab")
            )
        ),
        .spotOpened(
            SpotAnswer(
                session: "Lab meeting",
                sessionID: "spot-0123456789abcdef-00aa11bb",
                code: "031234",
                zone: "Lab",
                untilMillis: 1_795_337_600_000
            )
        ),
    ]

    /// The screen of a kiosk that hears no other kiosk (issue 37).
    static var solitaryScreen: ScreenContext {
        var context = ScreenContext(kioskName: "Hall Z")
        context.solitude = Solitude(sinceMillis: 1_795_337_990_000, unheardZone: nil)
        return context
    }
}
