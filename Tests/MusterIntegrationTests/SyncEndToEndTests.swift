import Foundation
import Testing

/// Several real kiosks replicating over authenticated, encrypted TCP sessions on loopback, with
/// static peers (no multicast): k2 and k3 know only k1, so anything between them is relayed by k1.
@Suite("Kiosks converge", .serialized)
struct SyncEndToEndTests {
    static let csv = (1...40).map { "p\($0)@example.com,First\($0),Last\($0),Co \($0),T-\($0)" }
        .joined(separator: "\n")

    struct Lab {
        let k1: KioskHarness
        let k2: KioskHarness
        let k3: KioskHarness
        var all: [KioskHarness] { [k1, k2, k3] }

        /// The three kiosks started, the list imported and locked on k1, and every kiosk holding it.
        static func startedAndLocked() throws -> Lab {
            let lab = try Lab()
            for kiosk in lab.all { try kiosk.start() }
            try lab.importAndLock()
            try SyncEndToEndTests.waitForEqualDigests(lab.all)
            return lab
        }

        /// The organizer imports 40 attendees into "Expo" and locks it, on k1.
        func importAndLock() throws {
            let file = try k1.write(
                "list.csv",
                "email,first_name,last_name,company,ticket\n" + SyncEndToEndTests.csv + "\n"
            )
            #expect(
                try k1.muster(["import", file, "--campaign", "Expo", "--organizer-key", k1.organizerKey]).status == 0
            )
            #expect(try k1.muster(["lock", "Expo", "--organizer-key", k1.organizerKey]).status == 0)
        }

        init(k1: KioskHarness, k2: KioskHarness, k3: KioskHarness) {
            self.k1 = k1
            self.k2 = k2
            self.k3 = k3
        }

        init() throws {
            let p1 = try freeLoopbackPort()
            let p2 = try freeLoopbackPort()
            let p3 = try freeLoopbackPort()
            k1 = try KioskHarness(
                name: "k1",
                listen: "127.0.0.1:\(p1)",
                staticPeers: ["127.0.0.1:\(p2)", "127.0.0.1:\(p3)"]
            )
            k2 = try KioskHarness(name: "k2", venueOf: k1, listen: "127.0.0.1:\(p2)", staticPeers: ["127.0.0.1:\(p1)"])
            k3 = try KioskHarness(name: "k3", venueOf: k1, listen: "127.0.0.1:\(p3)", staticPeers: ["127.0.0.1:\(p1)"])
        }
    }

    static func digest(_ kiosk: KioskHarness) throws -> String { try kiosk.status()["digest"] as? String ?? "" }

    static func waitForEqualDigests(_ kiosks: [KioskHarness], timeout: Double = 20) throws {
        try waitUntil("all digests are equal", timeout: timeout) {
            Set(try kiosks.map(digest)).count == 1
        }
    }

    @Test("import and lock on k1 reach k2 and k3; a check-in on k2 reaches k1 and k3 through k1")
    func propagation() throws {
        let lab = try Lab()
        for kiosk in lab.all { try kiosk.start() }
        try waitUntil("k1 is in session with k2 and k3", timeout: 20) {
            (try lab.k1.status()["peers"] as? [String])?.count == 2
        }
        try lab.importAndLock()
        try waitUntil("k2 and k3 have the list and the lock", timeout: 20) {
            try [lab.k2, lab.k3].allSatisfy {
                let status = try $0.status()
                return status["attendees"] as? Int == 40 && status["campaign"] as? String == "Expo"
            }
        }
        let start = Date()
        #expect(try lab.k2.muster(["checkin", "p7@example.com"]).status == 0)
        try waitUntil("k3 sees k2's check-in", timeout: 20) {
            try lab.k3.muster(["lookup", "p7@example.com", "--json"]).stdout.contains("\"checkedIn\" : true")
        }
        let elapsed = Date().timeIntervalSince(start)
        print("propagation k2 -> k1 -> k3 (including two `muster` process starts): \(Int(elapsed * 1000)) ms")
        try Self.waitForEqualDigests(lab.all)
        // k3 shows the check-in as made at k2.
        #expect(try lab.k3.muster(["checkin", "p7@example.com"]).stdout.contains("at kiosk k2"))
        for kiosk in lab.all { try kiosk.stop() }
    }

    /// Deltas received from each peer and how many of them the kiosk already held, summed.
    static func receivedAndCopies(_ kiosk: KioskHarness) throws -> (received: Int, copies: Int) {
        let peers = try kiosk.status()["peerDetails"] as? [[String: Any]] ?? []
        return peers.reduce((0, 0)) {
            ($0.0 + ($1["deltasReceived"] as? Int ?? 0), $0.1 + ($1["copiesReceived"] as? Int ?? 0))
        }
    }

    @Test("on a full mesh every delta crosses each link once: nothing is relayed to a kiosk that hears its author")
    func fullMeshSendsNoRelayedCopies() throws {
        let ports = try (0..<3).map { _ in try freeLoopbackPort() }
        let address = ports.map { "127.0.0.1:\($0)" }
        let k1 = try KioskHarness(name: "k1", listen: address[0], staticPeers: [address[1], address[2]])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: address[1], staticPeers: [address[0], address[2]])
        let k3 = try KioskHarness(name: "k3", venueOf: k1, listen: address[2], staticPeers: [address[0], address[1]])
        let all = [k1, k2, k3]
        for kiosk in all { try kiosk.start() }
        try waitUntil("every kiosk is in session with the other two", timeout: 20) {
            try all.allSatisfy { (try $0.status()["peers"] as? [String])?.count == 2 }
        }
        let lab = Lab(k1: k1, k2: k2, k3: k3)
        try lab.importAndLock()
        for index in 1...10 {
            #expect(try k2.muster(["checkin", "p\(index)@example.com"]).status == 0)
            #expect(try k3.muster(["checkin", "p\(index + 10)@example.com"]).status == 0)
        }
        try Self.waitForEqualDigests(all)
        for (index, kiosk) in all.enumerated() {
            let name = "k\(index + 1)"
            let (received, copies) = try Self.receivedAndCopies(kiosk)
            print("full mesh: \(name) received \(received) deltas, \(copies) it already held")
            // Each kiosk needs the deltas the other two wrote: 20 or more. With relaying to every
            // session, each would arrive twice (copies ≈ received / 2); a heads exchange that
            // crosses a delta in flight may still send the odd one again.
            #expect(received >= 20, "\(name) received \(received)")
            #expect(copies * 10 <= received, "\(name): \(copies) copies of \(received) deltas")
        }
        for kiosk in all { try kiosk.stop() }
    }

    @Test(
        "a peer's received count is kept per peer key: a session that ends and comes back neither loses nor doubles it"
    )
    func receivedCountSurvivesSessions() throws {
        let p1 = try freeLoopbackPort()
        let p2 = try freeLoopbackPort()
        let k1 = try KioskHarness(name: "k1", listen: "127.0.0.1:\(p1)", staticPeers: ["127.0.0.1:\(p2)"])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: "127.0.0.1:\(p2)", staticPeers: ["127.0.0.1:\(p1)"])
        try k1.start()
        try k2.start()
        try Lab(k1: k1, k2: k2, k3: k2).importAndLock()
        try Self.waitForEqualDigests([k1, k2])
        for index in 1...3 { #expect(try k2.muster(["checkin", "p\(index)@example.com"]).status == 0) }
        try Self.waitForEqualDigests([k1, k2])
        let before = try Self.receivedAndCopies(k1)
        #expect(before.received - before.copies == 3, "k1 took k2's 3 check-ins from k2: \(before)")

        // k2 restarts: k1's session with it ends, and a new one (perhaps two crossed dials, one
        // replacing the other) begins. k1 has still received what it received.
        try k2.stop()
        try waitUntil("k1 sees k2 gone", timeout: 20) { (try k1.status()["peers"] as? [String])?.isEmpty == true }
        try k2.start()
        try waitUntil("k2 is back in session", timeout: 20) { (try k1.status()["peers"] as? [String])?.count == 1 }
        for index in 4...5 { #expect(try k2.muster(["checkin", "p\(index)@example.com"]).status == 0) }
        try Self.waitForEqualDigests([k1, k2])
        let after = try Self.receivedAndCopies(k1)
        print("received from k2: \(before) before its restart, \(after) after")
        #expect(after.received - after.copies == 5, "k1 took all 5 of k2's check-ins from k2: \(after)")
        #expect(after.received >= before.received + 2 && after.copies >= before.copies, "\(before) -> \(after)")
        try k2.stop()
        try k1.stop()
    }

    @Test("cut off, both sides check in, the same attendee twice; after heal all agree on the first")
    func partitionAndHeal() throws {
        let lab = try Lab.startedAndLocked()

        // k1 (the only link between k2 and k3) goes away: k2 and k3 are cut off from each other.
        try lab.k1.stop()
        #expect(try lab.k2.muster(["checkin", "p1@example.com"]).status == 0)
        #expect(try lab.k3.muster(["checkin", "p2@example.com"]).status == 0)
        #expect(try lab.k3.muster(["checkin", "p1@example.com"]).status == 0, "k3 cannot know about k2's check-in")
        #expect(try Self.digest(lab.k2) != Self.digest(lab.k3))

        try lab.k1.start()
        try Self.waitForEqualDigests(lab.all)
        let firsts = try lab.all.map { kiosk -> String in
            let json = try kiosk.muster(["lookup", "p1@example.com", "--json"]).stdout
            return json.contains("\"kiosk\" : \"k2\"") ? "k2" : json.contains("\"kiosk\" : \"k3\"") ? "k3" : "?"
        }
        #expect(
            Set(firsts).count == 1 && firsts[0] == "k2",
            "the earlier check-in (at k2) is shown everywhere: \(firsts)"
        )
        for kiosk in lab.all {
            #expect(try kiosk.status()["checkedIn"] as? Int == 2)
        }
        for kiosk in lab.all { try kiosk.stop() }
    }

    @Test("garbage and a wrong network key get nothing; the daemon keeps serving")
    func hostileConnections() throws {
        let (kiosk, port) = try KioskHarness.startedOnLoopback(name: "k1")
        let before = try Self.digest(kiosk)
        for payload: [UInt8] in [
            Array("GET / HTTP/1.0\r\n\r\n".utf8), [0xff, 0xff, 0xff, 0xff] + [UInt8](repeating: 7, count: 64),
            [0, 0, 0, 64] + [UInt8](repeating: 0, count: 64),
        ] {
            let answer = try Self.exchange(port: port, payload)
            #expect(answer.isEmpty, "the daemon must not answer a peer that failed the handshake")
        }
        #expect(try Self.digest(kiosk) == before)
        #expect(try kiosk.muster(["status"]).status == 0)
        try kiosk.stop()
    }

    /// Connects, sends bytes, and returns whatever comes back before the daemon closes the connection.
    static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try RawPeer.connect(port: port)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }

    @Test("k2 killed with SIGKILL during a burst: every acknowledged check-in reaches all three")
    func killDuringBurst() throws {
        let lab = try Lab.startedAndLocked()

        let acknowledged = Acknowledged()
        let k2 = lab.k2.runner
        let burst = Thread {
            for index in 1...40 {
                guard let result = try? k2.run(["checkin", "p\(index)@example.com"]) else { continue }
                if result.status == 0 { acknowledged.add("p\(index)@example.com") }
                if result.status == 5 { break }  // the daemon is gone: outcome unknown from here on
            }
            acknowledged.finish()
        }
        burst.start()
        try waitUntil("a few check-ins are acknowledged", timeout: 30) { acknowledged.count >= 8 }
        try lab.k2.killHard()
        acknowledged.waitUntilFinished()
        let acked = acknowledged.all
        #expect(acked.count >= 8)
        try lab.k2.start()
        try Self.waitForEqualDigests(lab.all, timeout: 30)
        for kiosk in lab.all {
            let checkedIn = try kiosk.muster(["attendees", "--checked-in", "--json"]).stdout
            for email in acked {
                #expect(checkedIn.contains("\"\(email)\""), "\(email) acknowledged on k2 but missing on a kiosk")
            }
        }
        for kiosk in lab.all { try kiosk.stop() }
    }

    @Test("a fourth kiosk started late catches up 10,000 deltas and reaches the same digest")
    func lateKioskCatchesUp() throws {
        let (k1, p1) = try KioskHarness.startedOnLoopback(name: "k1")
        let rows = (1...9_998).map { "late\($0)@example.com,F\($0),L\($0),Co,L-\($0)" }.joined(separator: "\n")
        let file = try k1.write("big.csv", "email,first_name,last_name,company,ticket\n" + rows + "\n")
        #expect(try k1.muster(["import", file, "--campaign", "Big", "--organizer-key", k1.organizerKey]).status == 0)
        #expect(try k1.muster(["lock", "Big", "--organizer-key", k1.organizerKey]).status == 0)
        let deltas = (try k1.status()["authors"] as? [[String: Any]])?.compactMap { $0["deltas"] as? Int }.reduce(0, +)
        #expect(deltas == 10_000)
        let k4 = try KioskHarness(
            name: "k4",
            venueOf: k1,
            listen: "127.0.0.1:\(try freeLoopbackPort())",
            staticPeers: ["127.0.0.1:\(p1)"]
        )
        let start = Date()
        try k4.start()
        try Self.waitForEqualDigests([k1, k4], timeout: 120)
        print(
            "late kiosk caught up 10,000 deltas in \(Int(Date().timeIntervalSince(start) * 1000)) ms (including daemon start)"
        )
        #expect(try k4.status()["attendees"] as? Int == 9_998)
        try k4.stop()
        try k1.stop()
    }

    @Test(
        "a frozen peer is declared gone within seconds and taken back when it answers; a wiped replica gets everything again"
    )
    func livenessAndWipedReplica() throws {
        let p1 = try freeLoopbackPort()
        let p2 = try freeLoopbackPort()
        let k1 = try KioskHarness(name: "k1", listen: "127.0.0.1:\(p1)", staticPeers: ["127.0.0.1:\(p2)"])
        let k2 = try KioskHarness(name: "k2", venueOf: k1, listen: "127.0.0.1:\(p2)", staticPeers: ["127.0.0.1:\(p1)"])
        try k1.start()
        try k2.start()
        let file = try k1.write("list.csv", "email,first_name,last_name,company,ticket\n" + Self.csv + "\n")
        #expect(try k1.muster(["import", file, "--campaign", "Expo", "--organizer-key", k1.organizerKey]).status == 0)
        try Self.waitForEqualDigests([k1, k2])
        #expect((try k1.status()["peers"] as? [String])?.count == 1)

        // SIGSTOP: the TCP connection stays open, but heartbeats stop.
        k2.signal(SIGSTOP)
        let frozen = Date()
        try waitUntil("k1 declares the frozen k2 gone", timeout: 15) {
            (try k1.status()["peers"] as? [String])?.isEmpty == true
        }
        let gone = Date().timeIntervalSince(frozen)
        print("frozen peer declared gone after \(Int(gone * 1000)) ms")
        // 4 s of silence plus the watchdog tick, measured through `muster status` polls.
        #expect(gone < 5.5, "a silent peer must be declared gone within 5 s")
        k2.signal(SIGCONT)
        try waitUntil("k2 is back in session", timeout: 20) { (try k1.status()["peers"] as? [String])?.count == 1 }
        #expect(try k1.muster(["checkin", "p3@example.com"]).status == 4, "no lock yet: refused")

        // Wipe k2's replica: it comes back with a new epoch and nothing, and gets everything again.
        try k2.stop()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(
                atPath: k2.directory.appendingPathComponent("state/replica.sqlite\(suffix)").path
            )
        }
        try k2.start()
        try Self.waitForEqualDigests([k1, k2])
        #expect(try k2.status()["attendees"] as? Int == 40)
        try k2.stop()
        try k1.stop()
    }
}

/// Check-ins acknowledged by `muster checkin` while a burst runs on another thread.
final class Acknowledged: @unchecked Sendable {
    // Safe: every access goes through `lock`.
    private let lock = NSCondition()
    private var emails: [String] = []
    private var finished = false

    func add(_ email: String) { lock.withLock { emails.append(email) } }
    var count: Int { lock.withLock { emails.count } }
    var all: [String] { lock.withLock { emails } }

    func finish() {
        lock.withLock {
            finished = true
            lock.broadcast()
        }
    }

    func waitUntilFinished() {
        lock.lock()
        while !finished { lock.wait() }
        lock.unlock()
    }
}
