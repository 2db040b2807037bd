import MusterCore
import MusterCrypto
import MusterRules
import MusterStore

/// Local check-ins as the kiosk commits them: look the attendee up, decide, sign, store and
/// commit with `synchronous=FULL`, all in one ``Replica/appendLocal(keyPair:nowMillis:nextHLC:_:)``.
enum LocalCommitBench {
    static func run(_ options: BenchOptions, venue: BenchVenue, replica: Replica) throws -> LatencySample {
        var kiosk = Kiosk(venue: venue, attendees: options.attendees)
        var sample = LatencySample()
        for index in 0..<min(options.commits, options.attendees) {
            try sample.measure { try kiosk.checkIn(index, into: replica) }
        }
        return sample
    }

    /// Kiosk 1 of `venue` checking attendees in, a millisecond apart, from after the import of
    /// `attendees` attendees. Also the instruction-count guard's workload (``CountedWorkload``).
    struct Kiosk {
        let keyPair: SigningKeyPair
        var clock = HybridClock()
        var now: UInt64

        init(venue: BenchVenue, attendees: Int) {
            keyPair = venue.kioskKeys[0]
            now = BenchVenue.now(after: attendees)
        }

        /// Checks attendee `index` in; fails the benchmark unless the check-in was appended.
        mutating func checkIn(_ index: Int, into replica: Replica) throws {
            now += 1
            let key = EmailAddress.key(BenchVenue.email(index))
            let stamp = now
            let campaign = BenchVenue.campaign
            let decide = { (view: ReplicaView) throws -> LocalWrite<Bool> in
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
            var clock = self.clock
            defer { self.clock = clock }
            let (checkedIn, delta) = try replica.appendLocal(
                keyPair: keyPair,
                nowMillis: stamp,
                nextHLC: { _ in clock.tick(nowMillis: stamp) },
                decide
            )
            guard checkedIn, delta != nil else { throw BenchError(.wrongResult, "check-in of \(key) was not appended") }
        }
    }
}
