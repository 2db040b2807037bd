/// The control protocol's JSON lines as the code before the typed protocol (issue 33, item 4) wrote them,
/// recorded from that code with sorted keys: the wire that `muster`, the kiosk screen, scripts and older
/// daemons speak, which the typed `ControlRequest` and `ControlResponse` must keep.
///
/// The daemon's encoder does not sort keys, and Foundation's order of unsorted keys changes from run to
/// run, so no line on the wire has a fixed byte order; sorted keys make the comparison byte-exact in
/// everything else (values, escapes, which fields are present).
enum RecordedControlLines {
    /// One request of every operation, as `muster`, the kiosk screen and the fault tool send it.
    static let requests: [String] = [
        #"{"op":"checkin","query":"ada.lovelace@example.com"}"#,
        #"{"op":"checkout","query":"MUS-0001"}"#,
        #"{"company":"Ñandú GmbH","email":"walk.in@example.org","firstName":"Walk","lastName":"Ín","op":"register"}"#,
        #"{"company":"","email":"walk.in@example.org","firstName":"Walk","lastName":"In","op":"register"}"#,
        #"{"attendeeKey":"ada.lovelace@example.com","op":"note","text":"Great keynote! 🎉 \"quoted\" a\/b"}"#,
        #"{"author":"abababababababababababababababababababababababababababababababab","op":"head"}"#,
        #"{"deltas":[{"envelope":"0a0b0c","signature":"0d0e0f"},{"envelope":"1a1b1c","signature":"1d1e1f"}],"op":"submit"}"#,
        #"{"deltas":[{"envelope":"0a0b0c","signature":"0d0e0f"}],"op":"submit","stage":true}"#,
        #"{"deltas":[{"envelope":"1a1b1c","signature":"1d1e1f"}],"op":"submit","staged":1}"#,
        #"{"certificate":{"envelope":"1a1b1c","signature":"1d1e1f"},"deltas":[{"envelope":"0a0b0c","signature":"0d0e0f"}],"op":"submit","stage":true}"#,
        #"{"certificate":{"envelope":"1a1b1c","signature":"1d1e1f"},"deltas":[{"envelope":"0a0b0c","signature":"0d0e0f"}],"op":"submit","staged":1}"#,
        #"{"op":"status"}"#,
        #"{"op":"ping"}"#,
        #"{"op":"screen"}"#,
        #"{"attendeeKey":"ada.lovelace@example.com","badgeReason":"self-service","op":"badge"}"#,
        #"{"badgeReason":"reprint","op":"badge","query":"MUS-0001"}"#,
        #"{"badgeReason":"print-only","op":"badge","query":"MUS-0001"}"#,
        #"{"op":"lookup","query":" mus-0001 "}"#,
        #"{"op":"replace_badge","query":"ada.lovelace@example.com"}"#,
        #"{"op":"replace_badge","query":"MUS-0001","restore":true}"#,
        // Added with issue 35 (no older line to keep): staff admit an attention ticket.
        #"{"op":"checkin_confirmed","query":"MUS-0001","staff":"Grace"}"#,
        #"{"addon":"T-shirt","op":"redeem","query":"MUS-0001"}"#,
        #"{"op":"checkin_party","query":"ABC12"}"#,
        // Added with issue 36: a session door's scan, with and without a spot's code; a host opens a spot.
        #"{"op":"attend","query":"MUS-0001"}"#,
        #"{"code":"031234","op":"attend","query":"ada.lovelace@example.com"}"#,
        #"{"op":"open_spot","seconds":600,"session":"Lab meeting"}"#,
    ]

    /// Lines a script or an older client writes by hand: keys in any order, explicit nulls, fields an
    /// operation does not use, optional fields left out. Each must read as the request of the same index
    /// in ``scriptMeaning``.
    static let scriptRequests: [String] = [
        #"{"query":"ada@example.com","op":"checkin"}"#,
        #"{"op":"checkin","query":"ada@example.com","text":null,"company":"ignored"}"#,
        #"{"op":"note","attendeeKey":"ada@example.com"}"#,
        #"{"op":"register","firstName":"Walk","lastName":"In","email":"walk.in@example.org"}"#,
        #"{"op":"badge","attendeeKey":"ada@example.com"}"#,
        #"{"op":"badge","attendeeKey":"ada@example.com","query":"MUS-0001","badgeReason":"reprint"}"#,
        #"{"op":"submit","deltas":[{"envelope":"0a","signature":"0b"}],"stage":false,"staged":null}"#,
        #"{"op":"submit","deltas":[{"envelope":"0a","signature":"0b"}],"stage":true,"staged":3}"#,
        #"{"op":"submit"}"#,
        #"{"op":"head","author":"ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB"}"#,
        "{\"op\":\"ping\"}\r",
    ]

    /// What each of ``scriptRequests`` means, as the typed protocol writes it again (sorted keys).
    static let scriptMeaning: [String] = [
        #"{"op":"checkin","query":"ada@example.com"}"#,
        #"{"op":"checkin","query":"ada@example.com"}"#,
        #"{"attendeeKey":"ada@example.com","op":"note","text":""}"#,
        #"{"company":"","email":"walk.in@example.org","firstName":"Walk","lastName":"In","op":"register"}"#,
        #"{"attendeeKey":"ada@example.com","badgeReason":"self-service","op":"badge"}"#,
        #"{"attendeeKey":"ada@example.com","badgeReason":"reprint","op":"badge"}"#,
        #"{"deltas":[{"envelope":"0a","signature":"0b"}],"op":"submit"}"#,
        #"{"deltas":[{"envelope":"0a","signature":"0b"}],"op":"submit","stage":true}"#,
        #"{"deltas":[],"op":"submit"}"#,
        #"{"author":"abababababababababababababababababababababababababababababababab","op":"head"}"#,
        #"{"op":"ping"}"#,
    ]

    /// One answer of every outcome, in each shape the daemon gives it (a door's refusal and a walk-in's,
    /// a staged and an applied submission, the daemon's status and the screen's, an error from a daemon
    /// before error codes), as staff are told it.
    static let responses: [String] = [
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"outcome":"checked_in"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"message":"You are already registered for this event.","outcome":"checked_in"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795337000000,"kioskName":"Hall B","location":"VIP door"},"message":"Already inside since 08:43.","outcome":"already_checked_in","reason":"already_inside"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795337000000,"kioskName":"Hall B","location":"VIP door"},"message":"You are already registered for this event.","outcome":"already_checked_in"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"outcome":"checked_out"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"outcome":"not_checked_in"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Ñandú GmbH","firstName":"Walk","key":"walk.in@example.org","lastName":"Ín","ticket":"W-ABCD1234"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"outcome":"registered","ticket":"W-ABCD1234"}"#,
        #"{"outcome":"noted"}"#,
        #"{"message":"No ticket or email matches.","outcome":"not_found"}"#,
        #"{"message":"No ticket or email matches.","outcome":"not_found","reason":"not_found"}"#,
        #"{"message":"This kiosk is waiting for the organizer to pick the event.","outcome":"refused"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"Check-in at North door opens at 10:00.","outcome":"refused","reason":"outside_window"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"This registration is not valid for check-in. Please see the staff desk.","outcome":"refused"}"#,
        #"{"headHash":"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd","headSeq":42,"outcome":"head"}"#,
        #"{"applied":5,"outcome":"submitted"}"#,
        #"{"applied":0,"outcome":"submitted","staged":500}"#,
        #"{"keyGeneration":1,"kioskKey":"efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef","kioskName":"Hall A","outcome":"status","peerDetails":[{"address":"10.0.0.2:7420","ahead":0,"behind":2,"copiesReceived":3,"deltasReceived":10,"digestMatches":false,"key":"1212121212121212121212121212121212121212121212121212121212121212","lastSeenMillis":1795337999000,"location":"VIP door","name":"Hall B"},{"address":"10.0.0.3:7420","ahead":0,"behind":0,"key":"3434343434343434343434343434343434343434343434343434343434343434","lastSeenMillis":1795337998000,"location":"","name":"Hall C"}],"peers":["1212121212121212121212121212121212121212121212121212121212121212@10.0.0.2:7420"]}"#,
        #"{"campaignName":"DevConf 2026","kioskName":"Hall A","language":"de","message":"Check-in opens at 10:00.","outcome":"status"}"#,
        #"{"kioskName":"Hall Z","outcome":"status"}"#,
        #"{"keyGeneration":0,"kioskKey":"efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef","kioskName":"Hall A","outcome":"status","peerDetails":[],"peers":[],"solitude":{"sinceMillis":1795337990000,"unheardZone":"Hall B"}}"#,
        #"{"kioskName":"Hall Z","outcome":"status","solitude":{"sinceMillis":1795337990000}}"#,
        #"{"kioskKey":"efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef","kioskName":"Hall A","outcome":"pong","peers":[]}"#,
        #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#,
        #"{"errorCode":"rate_limited","message":"too many tickets or emails not found; please see staff (try again in 4 s)","outcome":"error","retryAfterSeconds":4}"#,
        #"{"message":"malformed control request","outcome":"error"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"badgeJob":17,"outcome":"badge_printed"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"No printer is configured on this kiosk.","outcome":"badge_not_printed"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"A badge was already printed (self-service); staff can print another.","outcome":"badge_already_printed"}"#,
        #"{"admitted":true,"maskedName":"Ada L.","outcome":"found"}"#,
        #"{"admitted":true,"checkIn":{"atMillis":1795337000000,"kioskName":"","location":""},"maskedName":"Grace H.","outcome":"found"}"#,
        #"{"admitted":false,"maskedName":"Rita R.","outcome":"found"}"#,
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"outcome":"badge_replaced","ticket":"R-0123ABCD"}"#,
        // Added with issue 35 (no older line to keep): an add-on handed out.
        #"{"addon":"T-shirt","attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"outcome":"redeemed"}"#,
        #"{"outcome":"party_checked_in","partyAdmitted":[{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"}],"partyAdmittedCount":1,"partyRefused":[{"attendee":{"campaignID":"c0ffee0000000001","company":"Ñandú GmbH","firstName":"Walk","key":"walk.in@example.org","lastName":"Ín","ticket":"W-ABCD1234"},"message":"This area is full.","reason":"zone_full"}],"partyRefusedCount":1}"#,
        // Added with issue 36: attendance recorded, a spot opened.
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795337000000,"kioskName":"k1","location":"Lab"},"direction":"left","outcome":"attended","session":"Swift on Linux","sessionID":"s-0123456789abcdef"}"#,
        #"{"outcome":"spot_opened","session":"Lab meeting","sessionID":"spot-0123456789abcdef-00aa11bb","spotCode":"031234","untilMillis":1795337600000,"zone":"Lab"}"#,
    ]

    /// The badge desk's "printed but not recorded" error, which also repeated the attendee: the one line
    /// the typed protocol writes differently (an error carries its code and words, no attendee; no client
    /// read it there), as ``changedResponseNow``.
    static let changedResponse =
        #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"errorCode":"storage","message":"The badge printed but could not be recorded: disk full","outcome":"error"}"#
    static let changedResponseNow =
        #"{"errorCode":"storage","message":"The badge printed but could not be recorded: disk full","outcome":"error"}"#

    /// The answers the public screen's user can get (to `screen`, `lookup`, `checkin`, `register`, `note`
    /// and the self-service `badge`): each as staff are told it, then as the screen's user is, cut to what
    /// the screen shows: no company, no ticket but a walk-in's own new one, the last name's initial, a
    /// check-in's time without its kiosk or place.
    static let screenResponses: [(staff: String, screen: String)] = [
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"outcome":"checked_in"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"checkIn":{"atMillis":1795338000000,"kioskName":"","location":""},"outcome":"checked_in"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"message":"You are already registered for this event.","outcome":"checked_in"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"checkIn":{"atMillis":1795338000000,"kioskName":"","location":""},"message":"You are already registered for this event.","outcome":"checked_in"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795337000000,"kioskName":"Hall B","location":"VIP door"},"message":"Already inside since 08:43.","outcome":"already_checked_in","reason":"already_inside"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"checkIn":{"atMillis":1795337000000,"kioskName":"","location":""},"message":"Already inside since 08:43.","outcome":"already_checked_in","reason":"already_inside"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"checkIn":{"atMillis":1795337000000,"kioskName":"Hall B","location":"VIP door"},"message":"You are already registered for this event.","outcome":"already_checked_in"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"checkIn":{"atMillis":1795337000000,"kioskName":"","location":""},"message":"You are already registered for this event.","outcome":"already_checked_in"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Ñandú GmbH","firstName":"Walk","key":"walk.in@example.org","lastName":"Ín","ticket":"W-ABCD1234"},"checkIn":{"atMillis":1795338000000,"kioskName":"Hall A","location":"North door"},"outcome":"registered","ticket":"W-ABCD1234"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Walk","key":"walk.in@example.org","lastName":"Í"},"checkIn":{"atMillis":1795338000000,"kioskName":"","location":""},"outcome":"registered","ticket":"W-ABCD1234"}"#
        ),
        (#"{"outcome":"noted"}"#, #"{"outcome":"noted"}"#),
        (
            #"{"message":"No ticket or email matches.","outcome":"not_found"}"#,
            #"{"message":"No ticket or email matches.","outcome":"not_found"}"#
        ),
        (
            #"{"message":"No ticket or email matches.","outcome":"not_found","reason":"not_found"}"#,
            #"{"message":"No ticket or email matches.","outcome":"not_found","reason":"not_found"}"#
        ),
        (
            #"{"message":"This kiosk is waiting for the organizer to pick the event.","outcome":"refused"}"#,
            #"{"message":"This kiosk is waiting for the organizer to pick the event.","outcome":"refused"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"Check-in at North door opens at 10:00.","outcome":"refused","reason":"outside_window"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"message":"Check-in at North door opens at 10:00.","outcome":"refused","reason":"outside_window"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"This registration is not valid for check-in. Please see the staff desk.","outcome":"refused"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"message":"This registration is not valid for check-in. Please see the staff desk.","outcome":"refused"}"#
        ),
        (
            #"{"campaignName":"DevConf 2026","kioskName":"Hall A","language":"de","message":"Check-in opens at 10:00.","outcome":"status"}"#,
            #"{"campaignName":"DevConf 2026","kioskName":"Hall A","language":"de","message":"Check-in opens at 10:00.","outcome":"status"}"#
        ),
        (#"{"kioskName":"Hall Z","outcome":"status"}"#, #"{"kioskName":"Hall Z","outcome":"status"}"#),
        (
            #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#,
            #"{"errorCode":"bad_request","message":"missing query","outcome":"error"}"#
        ),
        (
            #"{"errorCode":"rate_limited","message":"too many tickets or emails not found; please see staff (try again in 4 s)","outcome":"error","retryAfterSeconds":4}"#,
            #"{"errorCode":"rate_limited","message":"too many tickets or emails not found; please see staff (try again in 4 s)","outcome":"error","retryAfterSeconds":4}"#
        ),
        (
            #"{"message":"malformed control request","outcome":"error"}"#,
            #"{"message":"malformed control request","outcome":"error"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"badgeJob":17,"outcome":"badge_printed"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"badgeJob":17,"outcome":"badge_printed"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"No printer is configured on this kiosk.","outcome":"badge_not_printed"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"message":"No printer is configured on this kiosk.","outcome":"badge_not_printed"}"#
        ),
        (
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"Analytical","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"Lovelace","ticket":"MUS-0001"},"message":"A badge was already printed (self-service); staff can print another.","outcome":"badge_already_printed"}"#,
            #"{"attendee":{"campaignID":"c0ffee0000000001","company":"","firstName":"Ada","key":"ada.lovelace@example.com","lastName":"L"},"message":"A badge was already printed (self-service); staff can print another.","outcome":"badge_already_printed"}"#
        ),
        (
            #"{"admitted":true,"maskedName":"Ada L.","outcome":"found"}"#,
            #"{"admitted":true,"maskedName":"Ada L.","outcome":"found"}"#
        ),
        (
            #"{"admitted":true,"checkIn":{"atMillis":1795337000000,"kioskName":"","location":""},"maskedName":"Grace H.","outcome":"found"}"#,
            #"{"admitted":true,"checkIn":{"atMillis":1795337000000,"kioskName":"","location":""},"maskedName":"Grace H.","outcome":"found"}"#
        ),
        (
            #"{"admitted":false,"maskedName":"Rita R.","outcome":"found"}"#,
            #"{"admitted":false,"maskedName":"Rita R.","outcome":"found"}"#
        ),
    ]
}
