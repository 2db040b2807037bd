import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTestSupport
import MusterTime
import NIOCore
import NIOEmbedded
import Testing

@testable import MusterSync

/// The daemon's driver carrying out a connection's life (``ConnectionLife``) on NIO's testing channel,
/// without a socket: the real pipeline, handshake, secretstream and replica, with the test as the
/// dialing peer.
@Suite("SyncService on a testing channel")
struct SyncServiceConnectionTests {
    /// The test's end of one connection: it dials the service as kiosk B.
    final class Peer {
        let channel: NIOAsyncTestingChannel
        var pending = ByteBuffer()
        var sender: SecretStreamSender!
        var receiver: SecretStreamReceiver!

        init(_ channel: NIOAsyncTestingChannel) { self.channel = channel }

        func write(_ payload: [UInt8]) async throws {
            try await channel.writeInbound(ByteBuffer.frame(payload))
        }

        /// The next whole frame the service wrote.
        func read() async throws -> [UInt8] {
            while true {
                if let length = pending.getInteger(at: pending.readerIndex, as: UInt32.self),
                    pending.readableBytes >= 4 + Int(length)
                {
                    pending.moveReaderIndex(forwardBy: 4)
                    return pending.readBytes(length: Int(length))!
                }
                var more = try await awaiting { try await self.channel.readOutbound(as: ByteBuffer.self) }
                pending.writeBuffer(&more)
            }
        }

        /// Runs the testing event loop (what the driver sent it from off the loop runs only then)
        /// until `value` gives something, for at most a minute: the deadline only ends a broken
        /// test, and in the parallel suite on two cores the driver's task can wait tens of seconds
        /// for a thread (a 10 s deadline failed a clean-clone CI run on 1f79d94).
        func awaiting<T>(_ value: () async throws -> T?) async throws -> T {
            let deadline = ContinuousClock.now + Self.patience
            while true {
                await channel.testingEventLoop.run()
                if let value = try await value() { return value }
                guard ContinuousClock.now < deadline else { throw Timeout() }
                try await Task.sleep(for: .milliseconds(2))
            }
        }

        struct Timeout: Error {}

        /// How long a wait may last before the test calls it a failure.
        static let patience = Duration.seconds(60)

        /// Waits for the service to close the connection (the handshake deadline runs on a manual
        /// clock here, so it is never what closes it).
        func closed() async throws {
            let channel = self.channel
            _ = try await awaiting { () async throws -> Bool? in
                try await channel.testingEventLoop.executeInContext { channel.isActive } ? nil : true
            }
        }

        func handshake(networkKey: SecureBytes, as key: SigningKeyPair) async throws {
            let client = try ClientHandshake(networkKey: networkKey, keyPair: key, authorize: { _ in true })
            try await write(client.hello())
            try await write(try client.receiveHello(try await read()))
            let result = try client.receiveAccept(try await read())
            receiver = try SecretStreamReceiver(key: result.receiveKey, header: try await read())
            sender = try SecretStreamSender(key: result.sendKey)
            try await write(sender.header)
        }

        func send(_ message: SyncMessage) async throws { try await write(try sender.seal(message.encode())) }

        func receive() async throws -> SyncMessage {
            let (plaintext, _) = try receiver.open(try await read())
            return try SyncMessage.decode(plaintext)
        }
    }

    let venue: TestVenue
    let networkKey: SecureBytes

    init() throws {
        venue = try TestVenue()
        networkKey = try SecureBytes.random(count: 32)
    }

    /// Runs `body` with kiosk A's service serving one accepted connection on a testing channel, and
    /// the test's peer already through the handshake; returns whether a session was established.
    func serving(
        _ replica: Replica,
        _ body: (Peer) async throws -> Void
    ) async throws -> Bool {
        let service = SyncService(
            configuration: .init(listenHost: "127.0.0.1", listenPort: 0, staticPeers: []),
            replica: replica,
            keyPair: venue.kioskAKey,
            networkKey: networkKey,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            clockNow: { (TestTime.start + 3_600_000, TestTime.clockBound) },
            observeHLC: { _ in }
        )
        let channel = NIOAsyncTestingChannel()
        let wrapped = try await channel.testingEventLoop.executeInContext {
            try SessionPipeline.configure(channel, unauthenticated: nil, time: ManualClock())
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9))
        let served = Task { await service.serve(wrapped, dialed: nil) }
        let peer = Peer(channel)
        do {
            try await peer.handshake(networkKey: networkKey, as: venue.kioskBKey)
            try await body(peer)
        } catch {
            _ = try? await channel.close()
            _ = await served.value
            throw error
        }
        _ = try? await channel.close()
        return await served.value
    }

    /// Nothing is said before the peer's credentials check out: a first word that is not
    /// credentials ends the connection without one frame from the listener.
    @Test func aPeerWithoutCredentialsLearnsNothing() async throws {
        try await TemporaryDirectory.with { directory in
            let dir = directory.path
            let replica = try venue.openReplica(in: dir)
            defer { try? replica.close() }
            let established = try await serving(replica) { peer in
                try await peer.send(.ping)
                try await peer.closed()
                #expect(try await peer.channel.readOutbound(as: ByteBuffer.self) == nil)
            }
            #expect(!established)
        }
    }

    /// The listener shows its credentials once the dialer's checked out, then the roster, then the
    /// core's hello; a delta the peer sends in the session is stored.
    @Test func anAdmittedPeerGetsCredentialsRosterAndHelloAndItsDeltaIsStored() async throws {
        try await TemporaryDirectory.with { directory in
            let dir = directory.path
            let replica = try venue.openReplica(in: dir)
            defer { try? replica.close() }
            try replica.ingestAtTestTime(venue.lockDeltas("c"))
            var signer = venue.signer(venue.kioskBKey)
            let note = try signer.sign(
                .note(NotePayload(campaignID: "c", attendeeKey: "a@example.com", text: "hello")),
                at: 5_000
            )
            let established = try await serving(replica) { peer in
                try await peer.send(.credentials(venue.certificate(for: venue.kioskBKey, name: "Kiosk B")))
                #expect(
                    try await peer.receive() == .credentials(try #require(try replica.certificate(of: venue.kioskA)))
                )
                guard case .roster(let roster) = try await peer.receive() else {
                    Issue.record("the session did not start with the roster")
                    return
                }
                #expect(roster.count == 2)
                guard case .hello = try await peer.receive() else {
                    Issue.record("no hello after the roster")
                    return
                }
                try await peer.send(.hello(epoch: "b", heads: []))
                try await peer.send(.deltas([note]))
                let deadline = ContinuousClock.now + Peer.patience
                while try replica.heads().first(where: { $0.author == venue.kioskB }) == nil {
                    #expect(ContinuousClock.now < deadline, "the peer's delta was not stored")
                    try await Task.sleep(for: .milliseconds(10))
                }
            }
            #expect(established)
        }
    }

    /// A revoked kiosk is shown its revocation; of its appeal only the organizer's delta is taken.
    @Test func aRevokedPeerIsShownItsRevocationAndOnlyTheOrganizersAppealIsStored() async throws {
        try await TemporaryDirectory.with { directory in
            let dir = directory.path
            let replica = try venue.openReplica(in: dir)
            defer { try? replica.close() }
            var organizer = venue.signer(venue.organizerKey)
            let revocation = try organizer.sign(
                .revoke(RevokePayload(kiosk: venue.kioskB, watermark: 0, keyGeneration: 0, sealedKeys: [])),
                at: 1_000
            )
            let appeal = try organizer.sign(.campaign(CampaignPayload(campaignID: "later", name: "later")), at: 2_000)
            try replica.ingestAtTestTime([revocation])
            let established = try await serving(replica) { peer in
                try await peer.send(.credentials(venue.certificate(for: venue.kioskBKey, name: "Kiosk B")))
                #expect(try await peer.receive() == .revoked(revocation))
                try await peer.send(.deltas([appeal]))
                try await peer.closed()
            }
            #expect(!established)
            #expect(try replica.heads().first { $0.author == venue.organizer }?.seq == appeal.seq)
        }
    }
}
