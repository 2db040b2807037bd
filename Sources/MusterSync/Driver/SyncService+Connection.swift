import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterTime
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// One connection: the handshake under a key of the ring, the credentials, then the session's read loop.
extension SyncService {
    /// Runs one connection: handshake, then the session until it ends. Returns whether a session (or
    /// a rekey session, under a retired key) was established.
    @discardableResult
    nonisolated func serve(
        _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        dialed: HostPort?,
        key dialKey: Int = 0
    ) async -> Bool {
        let remote = channel.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        let established = Mutex(false)
        do {
            try await channel.executeThenClose { inbound, outbound in
                let heard = LastHeard(time: time)
                let reader = FrameReader(inbound.makeAsyncIterator(), heard: heard)
                let raw = channel.channel
                try await watch(raw, heard: heard)
                // Closes the connection when the peer stays silent (during the handshake too).
                let liveness = Task { await closeWhenSilent(raw, heard: heard) }
                defer { liveness.cancel() }
                let (result, keyIndex) = try await handshake(
                    dialed: dialed != nil,
                    key: dialKey,
                    next: reader.next,
                    outbound: outbound
                )
                let peer = AuthorID(result.peer)
                guard let ours = try replica.certificate(of: me) else { throw SyncError.notEnrolled }
                let sender = try SecretStreamSender(key: result.sendKey)
                try await outbound.write(.frame(sender.header))
                let receiver = try SecretStreamReceiver(key: result.receiveKey, header: try await reader.next())
                let connection = PeerConnection(
                    peer: peer,
                    initiator: dialed != nil ? me : peer,
                    address: remote,
                    outbound: outbound,
                    channel: raw,
                    sender: sender,
                    replica: replica,
                    logger: logger
                )
                let link = Link(
                    connection: connection,
                    receiver: receiver,
                    reader: reader,
                    channel: raw,
                    dialed: dialed
                )
                let life = ConnectionLife(
                    me: me,
                    peer: peer,
                    dialed: dialed != nil,
                    retiredKey: keyIndex != 0,
                    organizer: replica.policy.organizer,
                    credentials: ours
                )
                try await live(life, on: link) { established.withLock { $0 = true } }
            }
        } catch {
            logger.debug("connection ended", metadata: ["address": "\(remote)", "error": "\(error)"])
        }
        return established.withLock { $0 }
    }

    /// An authenticated connection: the peer's connection, its stream of sealed frames, the socket.
    struct Link {
        let connection: PeerConnection
        let receiver: SecretStreamReceiver
        let reader: FrameReader
        let channel: any Channel
        /// The address this kiosk dialed (nil: the peer dialed us).
        let dialed: HostPort?

        /// The next message, opened and decoded.
        func message() async throws -> SyncMessage {
            let (plaintext, _) = try receiver.open(try await reader.next())
            return try SyncMessage.decode(plaintext)
        }
    }

    /// Whole frames arriving count as life even before the reader gets to them (a busy kiosk);
    /// single bytes trickling in do not.
    private nonisolated func watch(_ raw: any Channel, heard: LastHeard) async throws {
        try await raw.eventLoop.submit {
            let decoder = try raw.pipeline.syncOperations.handler(type: ByteToMessageHandler<FrameDecoder>.self)
            try raw.pipeline.syncOperations.addHandler(LivenessHandler(heard: heard), position: .after(decoder))
        }.get()
    }

    private nonisolated func closeWhenSilent(_ raw: any Channel, heard: LastHeard) async {
        while !Task.isCancelled {
            try? await time.sleep(for: .milliseconds(250))
            if Silence.isSilent(heardAgo: heard.silence, storing: heard.isBusy, timeout: SyncLimits.silenceTimeout) {
                raw.close(promise: nil)
                return
            }
        }
    }

    /// Runs the handshake under one of the ring's keys. Returns the result and the index of the key
    /// in the ring (0: the current one; any other is retired and only hands over the newer keys).
    ///
    /// - Parameter dialKey: when dialing, the attempt in a row (``NetworkKeyRing/dialKey(attempt:nowMillis:)``).
    nonisolated func handshake(
        dialed: Bool,
        key dialKey: Int,
        next: () async throws -> [UInt8],
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> (HandshakeResult, keyIndex: Int) {
        // Any kiosk holding the venue network key may sync (the signed roster narrows this later);
        // never ourselves, e.g. through our own announcement or a static peer pointing back at us.
        let me = self.me
        let authorize: (SigningPublicKey) -> Bool = { AuthorID($0) != me }
        // The kiosk's clock (the daemon's, with any offset it was started with) says which keys are
        // still within their grace period.
        let now = clockNow().now
        if dialed {
            let (index, key) = keyRing.withLock { $0.dialKey(attempt: dialKey, nowMillis: now) }
            let client = try ClientHandshake(networkKey: key, keyPair: keyPair, authorize: authorize)
            try await outbound.write(.frame(client.hello()))
            try await outbound.write(.frame(try client.receiveHello(try await next())))
            return (try client.receiveAccept(try await next()), index)
        }
        // The client's hello is authenticated with one of our usable network keys: find which.
        let keys = keyRing.withLock { $0.accepted(nowMillis: now) }
        let hello = try await next()
        var answer: (ServerHandshake, [UInt8], Int)?
        var failure: (any Error)?
        for (index, key) in keys {
            do {
                let server = try ServerHandshake(networkKey: key, keyPair: keyPair, authorize: authorize)
                answer = (server, try server.receiveHello(hello), index)
                break
            } catch {
                failure = error
            }
        }
        guard let (server, reply, index) = answer else { throw failure ?? SyncError.closed }
        try await outbound.write(.frame(reply))
        let (accept, result) = try server.receiveAuth(try await next())
        try await outbound.write(.frame(accept))
        return (result, index)
    }
}
