import MusterCore
import MusterStore

/// Local check-ins as the kiosk commits them: look the attendee up, decide, sign, store and
/// commit with `synchronous=FULL`, all in one ``Replica/appendLocal(keyPair:nowMillis:nextHLC:_:)``.
enum LocalCommitBench {
    static func run(_ options: BenchOptions, venue: BenchVenue, replica: Replica) throws -> LatencySample {
        let keyPair = venue.kioskKeys[0]
        var clock = HybridClock()
        var now = BenchVenue.now(after: options.attendees)
        var sample = LatencySample()
        let campaign = BenchVenue.campaign
        for index in 0..<min(options.commits, options.attendees) {
            now += 1
            let key = EmailAddress.key(BenchVenue.email(index))
            let stamp = now
            let (checkedIn, delta) = try sample.measure {
                try replica.appendLocal(
                    keyPair: keyPair,
                    nowMillis: stamp,
                    nextHLC: { _ in clock.tick(nowMillis: stamp) }
                ) {
                    view throws -> LocalWrite<Bool> in
                    guard let record = try view.attendee(campaignID: campaign, key: key), !record.isCheckedIn else {
                        return .answer(false)
                    }
                    let presence = PresencePayload(
                        campaignID: campaign,
                        attendeeKey: key,
                        kioskName: BenchVenue.kioskName(0),
                        location: "Hall",
                        memberStatus: "Attended"
                    )
                    return .append(.checkIn(CheckInPayload(presence)), answer: true)
                }
            }
            guard checkedIn, delta != nil else { throw BenchError(.wrongResult, "check-in of \(key) was not appended") }
        }
        return sample
    }
}
