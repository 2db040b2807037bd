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
    }

    static func run(lab: Lab, count: Int, firstAttendee: Int, baseline: Int, timeout: Double) throws -> Result {
        let kiosks = Array(1...lab.kiosks)
        let keys = try kiosks.map { try lab.kioskKey($0) }
        let failures = Mutex<[String]>([])
        let lastAck = Atomic<UInt64>(0)
        let group = DispatchGroup()
        let start = Stopwatch.monotonic()
        for (slot, kiosk) in kiosks.enumerated() {
            let socket = lab.socket(kiosk)
            let stride = kiosks.count
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let client = ControlClient(path: socket)
                var index = slot
                while index < count {
                    var request = ControlRequest(op: .checkIn)
                    request.query = BenchAttendees.email(firstAttendee + index)
                    do {
                        let response = try client.send(request)
                        guard response.outcome == .checkedIn else {
                            failures.withLock {
                                $0.append("k\(kiosk): \(response.outcome.rawValue) \(response.message ?? "")")
                            }
                            return
                        }
                    } catch {
                        failures.withLock { $0.append("k\(kiosk): \(error)") }
                        return
                    }
                    lastAck.max(Stopwatch.monotonic(), ordering: .relaxed)
                    index += stride
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        if let failure = failures.withLock({ $0.first }) { throw BenchError(.wrongResult, "burst: \(failure)") }
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
        let traces = kiosks.map { CommitTraceReader(path: lab.trace($0)) }
        let origins = zip(keys, traces).flatMap { key, trace in trace.local(author: key, since: start).map(\.key) }
        guard origins.count == count else {
            throw BenchError(.wrongResult, "burst: \(origins.count) check-ins traced, \(count) acknowledged")
        }
        var converged: UInt64 = 0
        for (kiosk, trace) in zip(kiosks, traces) {
            for key in origins {
                guard let entry = trace[key.author, key.seq] else {
                    throw BenchError(.wrongResult, "burst: k\(kiosk) lacks \(key.author.prefix(12)) #\(key.seq)")
                }
                converged = max(converged, entry.nanos)
            }
        }
        guard try lab.digestsEqual(kiosks, timeout: 15) else {
            throw BenchError(.wrongResult, "burst: every kiosk holds every check-in but digests differ")
        }
        return Result(
            convergeSeconds: Double(converged > last ? converged - last : 0) / 1e9,
            burstSeconds: Double(last - start) / 1e9,
            checkIns: count,
            kiosks: kiosks.count,
            converged: true
        )
    }
}
