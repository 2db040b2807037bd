import Foundation
import MusterCore
import MusterCrypto
import MusterSync
import Testing

/// Someone holding the venue network key but no enrollment, against a real `musterd` (issue 32,
/// item 4): the handshake is theirs to complete with a throwaway key, and what follows it, before
/// their certificate is admitted, must cost the kiosk no more than a credentials message.
@Suite("Before admission", .serialized)
struct BeforeAdmissionEndToEndTests {
    /// musterd.service's `MemoryMax=`.
    static let unitMemoryKiB = 512 * 1024

    @Test("64 throwaway-key connections with 8 MiB frames leave RSS bounded under the unit's memory limit")
    func throwawayKeysWithEightMiBFrames() throws {
        let venue = try SecurityEndToEndTests.Venue()
        let daemon = try #require(venue.k1.daemon)
        let pid = daemon.processIdentifier
        let rssBefore = try SecurityEndToEndTests.memoryKiB(pid, "VmRSS")
        let peakBefore = try SecurityEndToEndTests.memoryKiB(pid, "VmHWM")
        // 8 attackers' addresses, 8 connections each: every unauthenticated slot the kiosk has.
        var attackers: [(peer: RawPeer, key: SigningKeyPair)] = []
        for index in 0..<64 {
            let key = try SigningKeyPair.generate()
            let source = "127.0.0.\(2 + index / 8)"
            attackers.append(
                (try RawPeer(port: venue.port, source: source, networkKey: venue.joined.networkKey, keyPair: key), key)
            )
        }
        // Each announces a frame of 8 MiB − 1 and sends all of it but its last byte, so an unbounded
        // kiosk would hold every one until the handshake deadline.
        let length = Int(SyncLimits.maxFrameBytes) - 1
        let frame =
            [UInt8(length >> 24), UInt8((length >> 16) & 0xff), UInt8((length >> 8) & 0xff), UInt8(length & 0xff)]
            + [UInt8](repeating: 0x5a, count: length - 1)
        var refusedWhileSending = 0
        for attacker in attackers {
            let sent = frame.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = send(
                        attacker.peer.fd,
                        bytes.baseAddress! + offset,
                        bytes.count - offset,
                        Int32(MSG_NOSIGNAL)
                    )
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
            if !sent { refusedWhileSending += 1 }
        }
        let peakAfter = try SecurityEndToEndTests.memoryKiB(pid, "VmHWM")
        let rssAfter = try SecurityEndToEndTests.memoryKiB(pid, "VmRSS")
        print(
            "64 throwaway keys × 8 MiB frames: musterd RSS \(rssBefore / 1024) MiB before, \(rssAfter / 1024) MiB after, "
                + "peak \(peakBefore / 1024) → \(peakAfter / 1024) MiB; \(refusedWhileSending) refused mid-frame"
        )
        #expect(daemon.isRunning, "musterd died")
        #expect(peakAfter < Self.unitMemoryKiB, "the peak RSS passed the unit's MemoryMax=512M")
        #expect(peakAfter - rssBefore < 32 * 1024, "RSS peaked \((peakAfter - rssBefore) / 1024) MiB above its start")
        // Every attacker is cut off: its connection closed, its key nowhere in the replica.
        for attacker in attackers {
            #expect((try? RawPeer.readExactly(attacker.peer.fd, 1)) == nil, "an attacker's connection stayed open")
        }
        let replica = try venue.replica(venue.k1)
        for attacker in attackers {
            #expect(try replica.membership(of: AuthorID(attacker.key.publicKey)) == .unknown)
        }
        #expect((try venue.k1.status()["peers"] as? [String])?.count == 1, "k1 lost or gained a peer")
        // The honest kiosk still syncs a delta.
        #expect(try venue.k2.muster(["checkin", "MUS-0001"]).status == 0)
        try waitUntil("k1 sees k2's check-in", timeout: 10) {
            try venue.k1.muster(["lookup", "MUS-0001", "--json"]).stdout.contains("\"checkedIn\" : true")
        }
        try SyncEndToEndTests.waitForEqualDigests([venue.k1, venue.k2])
    }
}
