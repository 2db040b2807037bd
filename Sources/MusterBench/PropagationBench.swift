import Foundation

/// Propagation: check-ins spread round-robin over the lab's kiosks, paced; for each, the time from
/// its commit on the kiosk that took it (which precedes the acknowledgement by microseconds, so
/// the figure errs on the slow side) until the last other kiosk committed it, all read from the
/// kiosks' commit traces on the shared CLOCK_MONOTONIC.
enum PropagationBench {
    struct Result {
        let sample: LatencySample
        let checkIns: Int
        let kiosks: Int
        let ping: LatencySample?
        /// From the local commit to the answer reaching the client: what `ack_copies` adds (the wait
        /// for a peer's acknowledgement), plus the answer's trip over the control socket.
        let acknowledged: LatencySample
    }

    /// Expects a lab of `lab.kiosks` kiosks holding attendees 0..<count, locked.
    static func run(lab: Lab, count: Int, pacingMillis: Double, firstAttendee: Int) throws -> Result {
        let kiosks = Array(1...lab.kiosks)
        let keys = try Dictionary(uniqueKeysWithValues: kiosks.map { ($0, try lab.kioskKey($0)) })
        let ping = try PingProbe.run(lab: lab, from: 1, to: 2, count: 100)
        let start = Stopwatch.monotonic()
        var next = Double(start)
        var answered: [Int: [UInt64]] = [:]
        for index in 0..<count {
            let kiosk = kiosks[index % kiosks.count]
            try lab.checkIn(kiosk, query: BenchAttendees.email(firstAttendee + index))
            answered[kiosk, default: []].append(Stopwatch.monotonic())
            next += pacingMillis * 1e6
            let wait = next - Double(Stopwatch.monotonic())
            if wait > 0 { Thread.sleep(forTimeInterval: wait / 1e9) }
        }
        // Wait until every kiosk holds every check-in, then compute.
        let deadline = Stopwatch.seconds() + 60
        while true {
            let traces = kiosks.map { CommitTraceReader(path: lab.trace($0)) }
            let origins = zip(kiosks, traces).flatMap { kiosk, trace in
                trace.local(author: keys[kiosk]!, since: start).map { (kiosk: kiosk, key: $0.key, nanos: $0.nanos) }
            }
            var sample = LatencySample()
            var missing = 0
            for origin in origins {
                var latest: UInt64 = 0
                for (kiosk, trace) in zip(kiosks, traces) where kiosk != origin.kiosk {
                    guard let entry = trace[origin.key.author, origin.key.seq] else {
                        missing += 1
                        break
                    }
                    latest = max(latest, entry.nanos)
                }
                sample.record(nanoseconds: latest > origin.nanos ? latest - origin.nanos : 0)
            }
            if origins.count >= count && missing == 0 {
                // Each kiosk's check-ins were taken one at a time, so its n-th answer is its n-th commit.
                var acknowledged = LatencySample()
                for (kiosk, trace) in zip(kiosks, traces) {
                    let commits = trace.local(author: keys[kiosk]!, since: start)
                    for (commit, answer) in zip(commits, answered[kiosk] ?? []) {
                        acknowledged.record(nanoseconds: answer > commit.nanos ? answer - commit.nanos : 0)
                    }
                }
                return Result(
                    sample: sample,
                    checkIns: count,
                    kiosks: kiosks.count,
                    ping: ping,
                    acknowledged: acknowledged
                )
            }
            if Stopwatch.seconds() > deadline {
                throw BenchError(
                    .wrongResult,
                    "propagation: \(origins.count)/\(count) check-ins traced, \(missing) not on every kiosk after 60 s"
                )
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
