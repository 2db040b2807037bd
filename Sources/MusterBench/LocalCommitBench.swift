import Glibc
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore

/// Local check-ins as the kiosk commits them: look the attendee up, decide, sign, store and
/// commit with `synchronous=FULL`, all in one ``Replica/appendLocal(keyPair:nowMillis:nextHLC:_:)``.
enum LocalCommitBench {
    /// How far apart the paced check-ins are: 200 a second, far faster than a door (a scan, a look
    /// at the screen, the next person: about one a second at the busiest), yet time enough for the
    /// WAL checkpoint queued after a commit (``MusterStore/Replica``'s checkpointer) to run before
    /// the next check-in.
    static let pace: Duration = .milliseconds(5)

    /// `options.commits` check-ins back to back (each queued behind whatever the last one left, a
    /// checkpoint included), then as many more at ``pace``, as a door makes them.
    static func run(
        _ options: BenchOptions,
        venue: BenchVenue,
        replica: Replica
    ) throws -> (backToBack: LatencySample, paced: LatencySample) {
        var kiosk = Kiosk(venue: venue, attendees: options.attendees)
        var backToBack = LatencySample()
        var paced = LatencySample()
        let count = min(options.commits, options.attendees / 2)
        for index in 0..<count {
            try backToBack.measure { try kiosk.checkIn(index, into: replica) }
        }
        for index in count..<(2 * count) {
            sleep(pace)
            try paced.measure { try kiosk.checkIn(index, into: replica) }
        }
        return (backToBack, paced)
    }

    /// Sleeps the thread for `duration` (the benchmark's own pacing; nothing is awaited).
    static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
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
