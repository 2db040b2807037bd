import MusterCrypto

/// The sync handshake (`ServerHandshake`, `ClientHandshake`), the only code a peer without the venue
/// network key can reach.
///
/// Every input runs a fresh, real handshake between two kiosks and replaces one of its four messages.
/// The first byte picks which (low two bits: 0 client hello to the server, 1 client auth to the server,
/// 2 server hello to the client, 3 server accept to the client) and how: with bit 7 clear the rest is
/// the message itself; with bit 7 set it is XORed onto this session's genuine message (empty: the
/// genuine message unchanged; shorter or longer: truncated or extended), so mutations become
/// bit-exact tampering with a live transcript.
///
/// Properties: a step succeeds only for the byte-identical genuine message (for the client hello, also
/// a genuine hello replayed from the seed corpus, which the protocol allows and whose session then fails
/// at the client); the genuine message always completes the handshake, with matching peers and keys;
/// a failed step leaves the handshake ended, so even the genuine message is refused afterwards.
final class HandshakeTarget: FuzzTarget {
    let name = "handshake"
    /// A fixed venue network key, so that seeds written once stay genuine hellos for every later run.
    static let networkKeyBytes = Array("muster-fuzz venue network key!!!".utf8)

    private let networkKey: SecureBytes
    private let clientKey: SigningKeyPair
    private let serverKey: SigningKeyPair
    /// Genuine client hellos from the seed corpus (made under the same network key).
    private var replayableHellos: Set<[UInt8]> = []

    init() throws {
        networkKey = try SecureBytes(copying: Self.networkKeyBytes)
        clientKey = try SigningKeyPair.generate()
        serverKey = try SigningKeyPair.generate()
    }

    var dictionary: [[UInt8]] {
        [
            [0x00], [0x01], [0x02], [0x03], [0x80], [0x81], [0x82], [0x83], [UInt8](repeating: 0, count: 32),
            [UInt8](repeating: 0, count: 64), [1] + [UInt8](repeating: 0, count: 31),
        ]
    }

    func prepare(corpus: [[UInt8]]) {
        replayableHellos = Set(
            corpus.filter { $0.first == 0 && $0.count == 1 + HandshakeMessage.helloBytes }
                .map { Array($0.dropFirst()) }
        )
    }

    /// One session's genuine transcript, produced step by step as the input needs it.
    private struct Session {
        let client: ClientHandshake
        let server: ServerHandshake
        let hello: [UInt8]
    }

    func run(_ input: [UInt8]) throws(PropertyFailure) -> UInt64 {
        guard let selector = input.first else { return 0 }
        let step = Int(selector & 3)
        let xor = selector & 0x80 != 0
        let payload = Array(input.dropFirst())
        func message(genuine: [UInt8]) -> [UInt8] {
            guard xor else { return payload }
            guard !payload.isEmpty else { return genuine }
            return payload.indices.map { (i: Int) -> UInt8 in (i < genuine.count ? genuine[i] : 0) ^ payload[i] }
        }
        var behaviour = Fingerprint()
        behaviour.mix(step)
        let session = try fresh()
        let m1 = session.hello
        switch step {
        case 0:
            let sent = message(genuine: m1)
            try refusalChecked("client hello", sent: sent, genuine: m1, into: &behaviour) {
                let m2 = try session.server.receiveHello(sent)
                try PropertyFailure.check(
                    sent == m1 || replayableHellos.contains(sent),
                    "forged-hello",
                    "the server accepted a client hello that no holder of the network key produced"
                )
                guard sent == m1 else {
                    // A replayed hello is answered, but this client cannot go on with someone else's session.
                    try expectFailure(
                        "replayed-hello",
                        { () throws(HandshakeError) in _ = try session.client.receiveHello(m2) }
                    )
                    return "replayed"
                }
                try complete(session, m2: m2)
                return "completed"
            } thenRefuses: { () throws(HandshakeError) in
                _ = try session.server.receiveHello(m1)
            }
        case 1:
            let m2 = try genuine { () throws(HandshakeError) in try session.server.receiveHello(m1) }
            let m3 = try genuine { () throws(HandshakeError) in try session.client.receiveHello(m2) }
            let sent = message(genuine: m3)
            try refusalChecked("client auth", sent: sent, genuine: m3, into: &behaviour) {
                let (accept, result) = try session.server.receiveAuth(sent)
                try PropertyFailure.check(
                    sent == m3,
                    "forged-auth",
                    "the server completed a handshake on a tampered client auth"
                )
                let clientResult = try genuine { () throws(HandshakeError) in try session.client.receiveAccept(accept) }
                try checkKeys(client: clientResult, server: result)
                return "completed"
            } thenRefuses: { () throws(HandshakeError) in
                _ = try session.server.receiveAuth(m3)
            }
        case 2:
            let m2 = try genuine { () throws(HandshakeError) in try session.server.receiveHello(m1) }
            let sent = message(genuine: m2)
            try refusalChecked("server hello", sent: sent, genuine: m2, into: &behaviour) {
                let m3 = try session.client.receiveHello(sent)
                try PropertyFailure.check(sent == m2, "forged-hello", "the client accepted a tampered server hello")
                let (accept, result) = try genuine { () throws(HandshakeError) in try session.server.receiveAuth(m3) }
                let clientResult = try genuine { () throws(HandshakeError) in try session.client.receiveAccept(accept) }
                try checkKeys(client: clientResult, server: result)
                return "completed"
            } thenRefuses: { () throws(HandshakeError) in
                _ = try session.client.receiveHello(m2)
            }
        default:
            let m2 = try genuine { () throws(HandshakeError) in try session.server.receiveHello(m1) }
            let m3 = try genuine { () throws(HandshakeError) in try session.client.receiveHello(m2) }
            let (m4, result) = try genuine { () throws(HandshakeError) in try session.server.receiveAuth(m3) }
            let sent = message(genuine: m4)
            try refusalChecked("server accept", sent: sent, genuine: m4, into: &behaviour) {
                let clientResult = try session.client.receiveAccept(sent)
                try PropertyFailure.check(
                    sent == m4,
                    "forged-accept",
                    "the client completed a handshake on a tampered accept"
                )
                try checkKeys(client: clientResult, server: result)
                return "completed"
            } thenRefuses: { () throws(HandshakeError) in
                _ = try session.client.receiveAccept(m4)
            }
        }
        return behaviour.value
    }

    private func fresh() throws(PropertyFailure) -> Session {
        let allowAll: (SigningPublicKey) -> Bool = { _ in true }
        do {
            let client = try ClientHandshake(networkKey: networkKey, keyPair: clientKey, authorize: allowAll)
            let server = try ServerHandshake(networkKey: networkKey, keyPair: serverKey, authorize: allowAll)
            return Session(client: client, server: server, hello: client.hello())
        } catch {
            throw PropertyFailure("setup", "cannot start a handshake: \(error)")
        }
    }

    /// A step of the genuine transcript, which must succeed.
    private func genuine<T>(_ step: () throws(HandshakeError) -> T) throws(PropertyFailure) -> T {
        do {
            return try step()
        } catch {
            throw PropertyFailure("genuine-refused", "a genuine handshake step failed: \(error)")
        }
    }

    /// Finishes a handshake whose hello was genuine.
    private func complete(_ session: Session, m2: [UInt8]) throws(PropertyFailure) {
        let m3 = try genuine { () throws(HandshakeError) in try session.client.receiveHello(m2) }
        let (accept, result) = try genuine { () throws(HandshakeError) in try session.server.receiveAuth(m3) }
        let clientResult = try genuine { () throws(HandshakeError) in try session.client.receiveAccept(accept) }
        try checkKeys(client: clientResult, server: result)
    }

    private func checkKeys(client: HandshakeResult, server: HandshakeResult) throws(PropertyFailure) {
        try PropertyFailure.check(
            client.peer == serverKey.publicKey && server.peer == clientKey.publicKey,
            "peers",
            "the handshake completed with the wrong peer keys"
        )
        try PropertyFailure.check(
            client.sendKey.constantTimeEquals(server.receiveKey) && client.receiveKey.constantTimeEquals(server.sendKey)
                && !client.sendKey.constantTimeEquals(client.receiveKey),
            "session-keys",
            "the two sides derived different (or identical per-direction) session keys"
        )
    }

    /// Runs one step on the message `sent` (the genuine one or a tampered copy) and mixes what it came to
    /// into `behaviour`. When the handshake refuses it, the message must not have been the genuine one, and
    /// the handshake must have ended: `retry` (the genuine message, sent again) is refused too.
    private func refusalChecked(
        _ what: String,
        sent: [UInt8],
        genuine: [UInt8],
        into behaviour: inout Fingerprint,
        _ attempt: () throws -> String,
        thenRefuses retry: () throws(HandshakeError) -> Void
    ) throws(PropertyFailure) {
        do {
            behaviour.mix(try attempt())
        } catch let error as HandshakeError {
            try PropertyFailure.check(sent != genuine, "genuine-refused", "the genuine \(what) was refused: \(error)")
            behaviour.mix("\(error.code)")
            try expectEnded(retry)
        } catch let error as PropertyFailure {
            throw error
        } catch {
            throw PropertyFailure("untyped-error", "\(error)")
        }
    }

    private func expectFailure(_ property: String, _ step: () throws(HandshakeError) -> Void) throws(PropertyFailure) {
        do {
            try step()
        } catch {
            return
        }
        throw PropertyFailure(property, "a step that must fail succeeded")
    }

    /// After a failure the handshake holds no secrets: the genuine message must now be refused as out of order.
    private func expectEnded(_ step: () throws(HandshakeError) -> Void) throws(PropertyFailure) {
        do {
            try step()
        } catch {
            try PropertyFailure.check(
                error.code == .malformed,
                "ended",
                "a failed handshake answered \(error.code), not .malformed"
            )
            return
        }
        throw PropertyFailure("ended", "a failed handshake accepted the genuine message afterwards")
    }

    func seeds() throws -> [Seed] {
        let session = try fresh()
        let m1 = session.hello
        let m2 = try session.server.receiveHello(m1)
        let m3 = try session.client.receiveHello(m2)
        let (m4, _) = try session.server.receiveAuth(m3)
        _ = try session.client.receiveAccept(m4)
        var seeds = [
            Seed("1-client-hello.bin", [0x00] + m1),
            Seed("3-client-auth.bin", [0x01] + m3),
            Seed("2-server-hello.bin", [0x02] + m2),
            Seed("4-server-accept.bin", [0x03] + m4),
        ]
        for (step, count) in [(0, m1.count), (1, m3.count), (2, m2.count), (3, m4.count)] {
            seeds.append(Seed("xor-\(step)-genuine.bin", [0x80 | UInt8(step)]))
            seeds.append(Seed("xor-\(step)-zeros.bin", [0x80 | UInt8(step)] + [UInt8](repeating: 0, count: count)))
        }
        return seeds
    }
}
