import Foundation
import Testing

/// A stranger with no key against a real `musterd` (issue 12, "Before the handshake").
@Suite("Before the handshake", .serialized)
struct PreHandshakeEndToEndTests {
    @Test(
        "300 half-open connections trickling a byte every 2 s: RSS grows < 10 MiB, none outlives the deadline, peers keep syncing"
    )
    func halfOpenTricklers() throws {
        let venue = try SecurityEndToEndTests.Venue()
        let pid = try #require(venue.k1.daemon?.processIdentifier)
        let rssBefore = try SecurityEndToEndTests.residentKiB(pid)
        let fdsBefore = openDescriptors(pid)
        let overflowsBefore = listenOverflows()
        // The attacker on 127.0.0.2; the honest kiosks dial each other on 127.0.0.1.
        let trickler = Trickler(port: venue.port, source: "127.0.0.2", count: 300)
        #expect(trickler.connections.count == 300)
        let tickets = (1...6).map { String(format: "MUS-%04d", $0) }
        var peakRSS = rssBefore
        var peakFDs = fdsBefore
        let started = Date()
        for (round, ticket) in tickets.enumerated() {
            let roundStart = Date()
            trickler.round(byte: round)
            // An honest check-in on k2 reaches k1 while the attack goes on.
            #expect(try venue.k2.muster(["checkin", ticket]).status == 0)
            try waitUntil("k1 sees k2's check-in of \(ticket)", timeout: 10) {
                trickler.sweep()
                return try venue.k1.muster(["lookup", ticket, "--json"]).stdout.contains("\"checkedIn\" : true")
            }
            peakRSS = max(peakRSS, try SecurityEndToEndTests.residentKiB(pid))
            peakFDs = max(peakFDs, openDescriptors(pid))
            let rest = 2 - Date().timeIntervalSince(roundStart)
            trickler.watch(seconds: rest)
        }
        // Keep trickling past two deadlines.
        for round in tickets.count..<(tickets.count + 6) {
            trickler.round(byte: round)
            peakRSS = max(peakRSS, try SecurityEndToEndTests.residentKiB(pid))
            peakFDs = max(peakFDs, openDescriptors(pid))
            trickler.watch(seconds: 2)
        }
        let stuck = trickler.open(olderThan: 7)
        let overflows = listenOverflows().flatMap { after in overflowsBefore.map { after - $0 } }
        print(
            "300 tricklers for \(Int(Date().timeIntervalSince(started))) s: musterd RSS \(rssBefore / 1024) MiB before, "
                + "peak \(peakRSS / 1024) MiB; fds \(fdsBefore) before, peak \(peakFDs); \(trickler.closedByDaemon) closed by "
                + "the daemon; longest-lived \(String(format: "%.1f", trickler.longestLife)) s; \(stuck) older than 7 s still open; "
                + "accept queue overflowed \(overflows.map(String.init) ?? "?") times"
        )
        // A full accept queue delays every dialer, honest kiosks too, by the kernel's 1 s retry; with
        // a 64-connection queue this run overflowed it about 3,500 times (SyncLimits.listenBacklog).
        #expect((overflows ?? 0) == 0, "the accept queue overflowed \(overflows ?? 0) times")
        #expect(peakRSS - rssBefore < 10 * 1024, "RSS grew by \((peakRSS - rssBefore) / 1024) MiB")
        #expect(stuck == 0, "trickling kept \(stuck) connections open past the handshake deadline")
        #expect(trickler.longestLife < 7)
        #expect(peakFDs - fdsBefore < 64 + 16, "fds grew from \(fdsBefore) to \(peakFDs)")
        #expect((try venue.k1.status()["peers"] as? [String])?.count == 1)
        try SyncEndToEndTests.waitForEqualDigests([venue.k1, venue.k2])
    }

    @Test("a hello announcing 8 MiB is refused at its length prefix; nothing is buffered")
    func oversizedHello() throws {
        let venue = try SecurityEndToEndTests.Venue()
        let pid = try #require(venue.k1.daemon?.processIdentifier)
        let rssBefore = try SecurityEndToEndTests.residentKiB(pid)
        // 8 connections each starting an 8 MiB frame (the issue's 40 → 106 MiB): each is closed.
        for _ in 0..<8 {
            let fd = try RawPeer.connect(port: venue.port)
            defer { close(fd) }
            var payload: [UInt8] = [0, 0x80, 0, 0] + [UInt8](repeating: 7, count: 60_000)
            _ = payload.withUnsafeMutableBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #expect((try? RawPeer.readExactly(fd, 1)) == nil, "the daemon kept a connection that announced 8 MiB")
        }
        let rssAfter = try SecurityEndToEndTests.residentKiB(pid)
        print("8 oversized hellos: musterd RSS \(rssBefore / 1024) MiB before, \(rssAfter / 1024) MiB after")
        #expect(rssAfter - rssBefore < 4 * 1024)
    }
}
