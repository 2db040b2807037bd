import Foundation
import MusterCore
import MusterCrypto
import MusterSync
import Synchronization
import Testing

/// `musterd` under session churn (issue 12, "Under load").
@Suite("Under load", .serialized)
struct UnderLoadEndToEndTests {
    final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
        let sessions = Atomic<Int>(0)
    }

    @Test("SIGTERM during heavy session churn: musterd exits within 5 s; a failed session logs once")
    func sigtermDuringChurn() throws {
        let venue = try SecurityEndToEndTests.Venue()
        let daemon = try #require(venue.k1.daemon)
        let (key, certificate) = try venue.insider("churn")
        let port = venue.port
        let networkKey = venue.joined.networkKey
        let flag = Flag()
        let done = DispatchGroup()
        // Four threads open sessions as one enrolled kiosk (each replaces the last) and drop them
        // mid-stream, as kiosks that keep failing and reconnecting do.
        for _ in 0..<4 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                while !flag.raised.load(ordering: .relaxed) {
                    guard let peer = try? RawPeer(port: port, networkKey: networkKey, keyPair: key) else {
                        usleep(50_000)
                        continue
                    }
                    try? peer.send(.credentials(certificate))
                    _ = peer.receive()
                    flag.sessions.add(1, ordering: .relaxed)
                }
            }
        }
        // Strangers trickling, and a frozen peer that keeps its socket open and reads nothing.
        let trickler = Trickler(port: port, source: "127.0.0.3", count: 100)
        venue.k2.signal(SIGSTOP)
        defer { venue.k2.signal(SIGCONT) }
        for round in 0..<10 {
            trickler.round(byte: round)
            _ = try venue.k1.muster(["checkin", String(format: "MUS-%04d", round + 20)])
            usleep(300_000)
        }
        let started = Date()
        kill(daemon.processIdentifier, SIGTERM)
        while daemon.isRunning && Date().timeIntervalSince(started) < 30 { usleep(10_000) }
        let elapsed = Date().timeIntervalSince(started)
        flag.raised.store(true, ordering: .relaxed)
        done.wait()
        venue.k1.daemon = nil
        let log = venue.k1.daemonLog()
        let writeFailures = log.components(separatedBy: "session write failed").count - 1
        print(
            "SIGTERM under churn: exited after \(String(format: "%.2f", elapsed)) s (status \(daemon.terminationStatus)); "
                + "\(flag.sessions.load(ordering: .relaxed)) churned sessions; \(writeFailures) 'session write failed' lines"
        )
        #expect(elapsed < 5, "musterd took \(elapsed) s to exit after SIGTERM")
        #expect(!daemon.isRunning)
        #expect(writeFailures <= flag.sessions.load(ordering: .relaxed) + 2, "a failed session logged more than once")
        // A session that had ended, logged as "session ended", is not logged again by its writer.
        #expect(
            !log.contains("session write failed; closing error=I/O on closed channel"),
            "a write after the session's end was logged as a failure"
        )
    }
}
