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

        /// Checks attendee `index` in by the ticket code on their badge, as a door scan does:
        /// ``MusterStore/ReplicaView/judgeScan(_:at:nowMillis:dayStartMillis:)``, musterd's own door
        /// function (lock, lookup, the attendee's arrivals, a replaced code, the door rules), inside
        /// the write transaction. Fails the benchmark unless the check-in was appended.
        mutating func checkIn(_ index: Int, into replica: Replica) throws {
            now += 1
            let ticket = BenchVenue.ticket(index)
            let stamp = now
            let door = DoorScan.Door(kiosk: AuthorID(keyPair.publicKey), name: BenchVenue.kioskName(0), zone: "Hall")
            let decide = { (view: ReplicaView) throws -> LocalWrite<Bool> in
                let scan = try view.judgeScan(ticket, at: door, nowMillis: stamp, dayStartMillis: 0)
                guard case .admit = scan.decision else { return .answer(false) }
                return .append(scan.body, answer: true)
            }
            var clock = self.clock
            defer { self.clock = clock }
            let (checkedIn, delta) = try replica.appendLocal(
                keyPair: keyPair,
                nowMillis: stamp,
                nextHLC: { _ in clock.tick(nowMillis: stamp) },
                decide
            )
            guard checkedIn, delta != nil else {
                throw BenchError(.wrongResult, "check-in of \(ticket) was not appended")
            }
        }
    }
}
