import Foundation
import MusterClient
import MusterControl
import Synchronization

/// A burst: every kiosk of the lab takes check-ins as fast as its control socket acknowledges them
/// (one thread and one connection per kiosk, all at once). Timed from the last acknowledgement
/// until every kiosk has committed every check-in of the burst (commit traces), at which point
/// their digests are equal; the digests are then compared to be sure.
enum BurstBench {
    struct Result {
        /// From the last acknowledgement until the last kiosk holds every check-in.
        let convergeSeconds: Double
        /// From the first check-in sent to the last acknowledged.
        let burstSeconds: Double
        let checkIns: Int
        let kiosks: Int
        let converged: Bool
        /// Per kiosk, how many of the burst's check-ins it had not yet committed at the last
        /// acknowledgement, and when it committed its last one (seconds after that
        /// acknowledgement): a large backlog means ingest could not keep up, a small backlog with
        /// a long tail means something waited (a timer, a repair).
        var backlog: [(kiosk: Int, missing: Int, tailSeconds: Double)] = []
        /// Copies committed on all kiosks together (remote ones, then local ones) in each
        /// ``timelineStep`` after the first check-in was sent: how fast the venue absorbed the burst.
        var timeline: [(remote: Int, local: Int)] = []
        /// Seconds after the first check-in at which the last one was acknowledged.
        var lastAckOffset: Double = 0
        /// Deltas received from peers during the burst on all kiosks, and how many of them the
        /// receiver already held (as `muster status` counts them, over the sessions open at the
        /// end): divided by check-ins × (kiosks − 1), the copies each kiosk received per delta.
        var received: (deltas: Int, copies: Int) = (0, 0)
    }

    static let timelineStep: UInt64 = 5_000_000_000

    static func run(lab: Lab, count: Int, firstAttendee: Int, baseline: Int, timeout: Double) throws -> Result {
        let kiosks = Array(1...lab.kiosks)
        let keys = try kiosks.map { try lab.kioskKey($0) }
        let lastAck = Atomic<UInt64>(0)
        let before = try received(lab, kiosks)
        let start = Stopwatch.monotonic()
        let failure = CheckInRace.run(lab: lab, count: count, firstAttendee: firstAttendee, stopOnRefusal: true) {
            response in
            guard case .checkedIn = response else { return CheckInRace.refusal(response) }
            lastAck.max(Stopwatch.monotonic(), ordering: .relaxed)
            return nil
        }
        if let failure { throw BenchError(.wrongResult, "burst: \(failure)") }
        let last = lastAck.load(ordering: .relaxed)
        do {
            try lab.waitForLines(baseline + count, kiosks: kiosks, timeout: timeout)
        } catch {
            return Result(
                convergeSeconds: timeout,
                burstSeconds: Double(last - start) / 1e9,
                checkIns: count,
                kiosks: kiosks.count,
                converged: false
            )
        }
        let after = try received(lab, kiosks)
        let traces = kiosks.map { CommitTraceReader(path: lab.trace($0)) }
        var timeline: [(remote: Int, local: Int)] = []
        for trace in traces {
            for entry in trace.entries.values where entry.nanos >= start {
                let bucket = Int((entry.nanos - start) / timelineStep)
                while timeline.count <= bucket { timeline.append((0, 0)) }
                if entry.local { timeline[bucket].local += 1 } else { timeline[bucket].remote += 1 }
            }
        }
        let origins = zip(keys, traces).flatMap { key, trace in trace.local(author: key, since: start).map(\.key) }
        guard origins.count == count else {
            throw BenchError(.wrongResult, "burst: \(origins.count) check-ins traced, \(count) acknowledged")
        }
        var converged: UInt64 = 0
        var backlog: [(kiosk: Int, missing: Int, tailSeconds: Double)] = []
        for (kiosk, trace) in zip(kiosks, traces) {
            var missing = 0
            var newest: UInt64 = 0
            for key in origins {
                guard let entry = trace[key.author, key.seq] else {
                    throw BenchError(.wrongResult, "burst: k\(kiosk) lacks \(key.author.prefix(12)) #\(key.seq)")
                }
                newest = max(newest, entry.nanos)
                if entry.nanos > last { missing += 1 }
            }
            converged = max(converged, newest)
            backlog.append((kiosk, missing, Double(newest > last ? newest - last : 0) / 1e9))
        }
        guard try lab.digestsEqual(kiosks, timeout: 15) else {
            throw BenchError(.wrongResult, "burst: every kiosk holds every check-in but digests differ")
        }
        return Result(
            convergeSeconds: Double(converged > last ? converged - last : 0) / 1e9,
            burstSeconds: Double(last - start) / 1e9,
            checkIns: count,
            kiosks: kiosks.count,
            converged: true,
            backlog: backlog,
            timeline: timeline,
            lastAckOffset: Double(last - start) / 1e9,
            received: (after.deltas - before.deltas, after.copies - before.copies)
        )
    }

    /// Deltas received and already held, summed over every kiosk's sessions (`status`).
    static func received(_ lab: Lab, _ kiosks: [Int]) throws -> (deltas: Int, copies: Int) {
        var total = (deltas: 0, copies: 0)
        for kiosk in kiosks {
            let answer = try lab.request(kiosk, .status)
            guard case .status(let status) = answer else {
                throw BenchError(.wrongResult, "k\(kiosk): status answered \(answer)")
            }
            for peer in status.peerDetails {
                guard let deltas = peer.deltasReceived, let copies = peer.copiesReceived else { continue }
                total.deltas += deltas
                total.copies += copies
            }
        }
        return total
    }
}
