import MusterCrypto
import Testing

@Suite("Sync handshake")
struct HandshakeTests {
    // MARK: Helpers

    /// A venue network key, both as the module takes it and as plain bytes for hand-built messages.
    struct NetworkKey {
        let bytes: [UInt8]
        let secure: SecureBytes
        init() throws {
            bytes = SecureRandom.bytes(count: 32)
            secure = try SecureBytes(copying: bytes)
        }
    }

    /// Two kiosks and a network key, with helpers to run handshakes between them.
    struct Venue {
        let key: NetworkKey
        let client: SigningKeyPair
        let server: SigningPublicKey
        let serverPair: SigningKeyPair

        init() throws {
            key = try NetworkKey()
            client = try SigningKeyPair.generate()
            serverPair = try SigningKeyPair.generate()
            server = serverPair.publicKey
        }

        func makeClient(
            networkKey: SecureBytes? = nil,
            expectedServer: SigningPublicKey? = nil,
            authorize: @escaping (SigningPublicKey) -> Bool = { _ in true }
        ) throws -> ClientHandshake {
            try ClientHandshake(
                networkKey: networkKey ?? key.secure,
                keyPair: client,
                expectedServer: expectedServer,
                authorize: authorize
            )
        }

        /// A client and a server of this venue that have exchanged the hellos, and the client's
        /// third message (its credentials), not yet delivered.
        func upToMessageThree() throws -> (ClientHandshake, ServerHandshake, [UInt8]) {
            let client = try makeClient()
            let server = try makeServer()
            return (client, server, try client.receiveHello(try server.receiveHello(client.hello())))
        }

        func makeServer(
            networkKey: SecureBytes? = nil,
            authorize: @escaping (SigningPublicKey) -> Bool = { _ in true }
        ) throws -> ServerHandshake {
            try ServerHandshake(networkKey: networkKey ?? key.secure, keyPair: serverPair, authorize: authorize)
        }
    }

    /// The code of the HandshakeError `body` throws, or nil if it succeeds.
    static func code<T>(_ body: () throws -> T) -> HandshakeError.Code? {
        CryptoTestKit.error(HandshakeError.self, body)?.code
    }

    /// All four messages and both results of one complete handshake.
    struct Transcript {
        let messages: [[UInt8]]
        let client: HandshakeResult
        let server: HandshakeResult
    }

    static func run(_ client: ClientHandshake, _ server: ServerHandshake) throws -> Transcript {
        let m1 = client.hello()
        let m2 = try server.receiveHello(m1)
        let m3 = try client.receiveHello(m2)
        let (m4, serverResult) = try server.receiveAuth(m3)
        let clientResult = try client.receiveAccept(m4)
        return Transcript(messages: [m1, m2, m3, m4], client: clientResult, server: serverResult)
    }

    static func flipping(_ message: [UInt8], at index: Int) -> [UInt8] {
        var copy = message
        copy[index] ^= 0x01
        return copy
    }

    // MARK: Success

    @Test func fullHandshakeAgreesOnKeysAndIdentities() throws {
        let venue = try Venue()
        var clientSawServer: SigningPublicKey?
        var serverSawClient: SigningPublicKey?
        let client = try venue.makeClient {
            clientSawServer = $0
            return true
        }
        let server = try venue.makeServer {
            serverSawClient = $0
            return true
        }
        let transcript = try Self.run(client, server)

        #expect(
            transcript.messages.map(\.count) == [
                HandshakeMessage.helloBytes, HandshakeMessage.helloBytes, HandshakeMessage.authBytes,
                HandshakeMessage.authBytes,
            ]
        )
        #expect(HandshakeMessage.helloBytes == 64 && HandshakeMessage.authBytes == 112)
        #expect(transcript.client.peer == venue.server)
        #expect(transcript.server.peer == venue.client.publicKey)
        #expect(clientSawServer == venue.server)
        #expect(serverSawClient == venue.client.publicKey)
        #expect(transcript.client.sendKey.count == 32 && transcript.client.receiveKey.count == 32)
        #expect(transcript.client.sendKey.constantTimeEquals(transcript.server.receiveKey))
        #expect(transcript.client.receiveKey.constantTimeEquals(transcript.server.sendKey))
        #expect(!transcript.client.sendKey.constantTimeEquals(transcript.client.receiveKey))
    }

    @Test func expectedServerThatMatchesIsAccepted() throws {
        let venue = try Venue()
        let transcript = try Self.run(try venue.makeClient(expectedServer: venue.server), try venue.makeServer())
        #expect(transcript.client.peer == venue.server)
    }

    @Test func twoHandshakesProduceDifferentKeys() throws {
        let venue = try Venue()
        let first = try Self.run(try venue.makeClient(), try venue.makeServer())
        let second = try Self.run(try venue.makeClient(), try venue.makeServer())
        #expect(!first.client.sendKey.constantTimeEquals(second.client.sendKey))
        #expect(!first.client.receiveKey.constantTimeEquals(second.client.receiveKey))
        #expect(first.messages[0] != second.messages[0])  // fresh ephemeral keys
        #expect(first.messages[1] != second.messages[1])
    }

    @Test func sessionKeysDriveSecretStreamsBothWays() throws {
        let venue = try Venue()
        let transcript = try Self.run(try venue.makeClient(), try venue.makeServer())
        let clientOut = try SecretStreamSender(key: transcript.client.sendKey)
        let serverIn = try SecretStreamReceiver(key: transcript.server.receiveKey, header: clientOut.header)
        let serverOut = try SecretStreamSender(key: transcript.server.sendKey)
        let clientIn = try SecretStreamReceiver(key: transcript.client.receiveKey, header: serverOut.header)
        #expect(try serverIn.open(clientOut.seal(Array("heads?".utf8))).plaintext == Array("heads?".utf8))
        #expect(try clientIn.open(serverOut.seal(Array("heads!".utf8))).plaintext == Array("heads!".utf8))
    }

    @Test func resultNeverPrintsKeys() throws {
        let venue = try Venue()
        let result = try Self.run(try venue.makeClient(), try venue.makeServer()).client
        let keyHex = CryptoTestKit.hex(of: result.sendKey)
        for text in [
            result.description, result.debugDescription, String(describing: result), String(reflecting: result),
        ] {
            #expect(!text.contains(keyHex))
            #expect(text.contains(venue.server.fingerprint))
        }
        var dumped = ""
        dump(result, to: &dumped)
        #expect(!dumped.contains(keyHex))
    }

    // MARK: Wire format (checked against the independent reference client)

    @Test func helloIsEphemeralAndTagUnderNetworkKey() throws {
        let venue = try Venue()
        let hello = try venue.makeClient().hello()
        let point = Array(hello[..<32])
        #expect(Array(hello[32...]) == HandshakeReference.auth(point, key: venue.key.bytes))
    }

    @Test func referenceClientInteroperates() throws {
        let venue = try Venue()
        let reference = HandshakeReference.Client(networkKey: venue.key.bytes, keyPair: venue.client)
        let server = try venue.makeServer()
        let m2 = try server.receiveHello(reference.hello())
        let m3 = try #require(reference.auth(m2))
        let (m4, result) = try server.receiveAuth(m3)
        let accepted = try #require(reference.accept(m4))
        #expect(accepted.server == venue.server)
        #expect(result.peer == venue.client.publicKey)
        #expect(CryptoTestKit.hex(of: result.receiveKey) == CryptoTestKit.hex(accepted.c2s))
        #expect(CryptoTestKit.hex(of: result.sendKey) == CryptoTestKit.hex(accepted.s2c))
    }

    @Test func referenceClientAcceptsNothingFromAnotherVenue() throws {
        let venue = try Venue()
        let other = try NetworkKey()
        let reference = HandshakeReference.Client(networkKey: other.bytes, keyPair: venue.client)
        #expect(Self.code { try venue.makeServer().receiveHello(reference.hello()) } == .wrongNetworkKey)
    }

    @Test func signatureOverWrongTranscriptIsRejected() throws {
        let venue = try Venue()
        let reference = HandshakeReference.Client(networkKey: venue.key.bytes, keyPair: venue.client)
        let server = try venue.makeServer()
        let m3 = try #require(reference.auth(try server.receiveHello(reference.hello()), forge: .signWrongTranscript))
        #expect(Self.code { try server.receiveAuth(m3) } == .badSignature)
    }

    @Test func claimingAnotherKiosksKeyIsRejected() throws {
        let venue = try Venue()
        let victim = try SigningKeyPair.generate()
        let reference = HandshakeReference.Client(networkKey: venue.key.bytes, keyPair: venue.client)
        var asked = false
        let server = try venue.makeServer { _ in
            asked = true
            return true
        }
        let m3 = try #require(
            reference.auth(try server.receiveHello(reference.hello()), forge: .presentOtherKey(victim.publicKey))
        )
        #expect(Self.code { try server.receiveAuth(m3) } == .badSignature)
        #expect(!asked, "authorize must only see proven keys")
    }

    // MARK: Network key

    @Test func wrongNetworkKeyFailsAtMessageOne() throws {
        let venue = try Venue()
        let outsider = try venue.makeClient(networkKey: try NetworkKey().secure)
        let server = try venue.makeServer()
        let error = CryptoTestKit.error(HandshakeError.self) { try server.receiveHello(outsider.hello()) }
        #expect(error?.code == .wrongNetworkKey)
        #expect(error?.message.contains("network key") == true)
    }

    @Test func clientRejectsServerHelloUnderAnotherNetworkKey() throws {
        let venue = try Venue()
        let otherKey = try NetworkKey()
        // A server from another venue, answering a client of its own venue.
        let otherClient = try venue.makeClient(networkKey: otherKey.secure)
        let otherServer = try venue.makeServer(networkKey: otherKey.secure)
        let foreignReply = try otherServer.receiveHello(otherClient.hello())
        let client = try venue.makeClient()
        _ = client.hello()
        #expect(Self.code { try client.receiveHello(foreignReply) } == .wrongNetworkKey)

        // The same server ephemeral, tagged under the other key for *this* client's hello.
        let client2 = try venue.makeClient()
        let hello = client2.hello()
        let crafted = HandshakeReference.serverHello(
            ephemeral: Array(foreignReply[..<32]),
            clientEphemeral: Array(hello[..<32]),
            networkKey: otherKey.bytes
        )
        #expect(Self.code { try client2.receiveHello(crafted) } == .wrongNetworkKey)
    }

    @Test func tamperedHellosAreRejected() throws {
        let venue = try Venue()
        for index in [0, 31, 32, 63] {
            let client = try venue.makeClient()
            let server = try venue.makeServer()
            #expect(
                Self.code { try server.receiveHello(Self.flipping(client.hello(), at: index)) } == .wrongNetworkKey,
                "message 1, byte \(index)"
            )
            let client2 = try venue.makeClient()
            let m2 = try venue.makeServer().receiveHello(client2.hello())
            #expect(
                Self.code { try client2.receiveHello(Self.flipping(m2, at: index)) } == .wrongNetworkKey,
                "message 2, byte \(index)"
            )
        }
    }

    @Test func wrongSizeNetworkKeyIsRefused() throws {
        let venue = try Venue()
        for count in [0, 16, 31, 33, 64] {
            let key = try SecureBytes.random(count: count)
            #expect(
                CryptoTestKit.error(HandshakeError.self) {
                    try ClientHandshake(networkKey: key, keyPair: venue.client, authorize: { _ in true })
                }?
                .code == .malformed
            )
            #expect(
                CryptoTestKit.error(HandshakeError.self) {
                    try ServerHandshake(networkKey: key, keyPair: venue.serverPair, authorize: { _ in true })
                }?.code == .malformed
            )
        }
    }

    // MARK: Authorization

    @Test func serverRefusingClientGivesNotAuthorized() throws {
        let venue = try Venue()
        let client = try venue.makeClient()
        let server = try venue.makeServer { _ in false }
        let m3 = try client.receiveHello(try server.receiveHello(client.hello()))
        let error = CryptoTestKit.error(HandshakeError.self) { try server.receiveAuth(m3) }
        #expect(error?.code == .notAuthorized)
        #expect(error?.message.contains(venue.client.publicKey.fingerprint) == true)
    }

    @Test func clientRefusingServerGivesNotAuthorized() throws {
        let venue = try Venue()
        let client = try venue.makeClient { _ in false }
        let server = try venue.makeServer()
        let m3 = try client.receiveHello(try server.receiveHello(client.hello()))
        let (m4, _) = try server.receiveAuth(m3)
        #expect(Self.code { try client.receiveAccept(m4) } == .notAuthorized)
    }

    @Test func unexpectedServerIsRejected() throws {
        let venue = try Venue()
        let pinned = try SigningKeyPair.generate().publicKey
        var asked = false
        let client = try venue.makeClient(expectedServer: pinned) { _ in
            asked = true
            return true
        }
        let server = try venue.makeServer()
        let m3 = try client.receiveHello(try server.receiveHello(client.hello()))
        let (m4, _) = try server.receiveAuth(m3)
        let error = CryptoTestKit.error(HandshakeError.self) { try client.receiveAccept(m4) }
        #expect(error?.code == .unexpectedServer)
        #expect(error?.message.contains(pinned.fingerprint) == true)
        #expect(error?.message.contains(venue.server.fingerprint) == true)
        #expect(!asked)
    }

    // MARK: Tampering and replay

    @Test(arguments: [0, 1, 15, 16, 47, 48, 111])
    func tamperedMessageThreeIsRejected(index: Int) throws {
        let venue = try Venue()
        let (_, server, m3) = try venue.upToMessageThree()
        #expect(Self.code { try server.receiveAuth(Self.flipping(m3, at: index)) } == .badSignature)
    }

    @Test(arguments: [0, 1, 15, 16, 47, 48, 111])
    func tamperedMessageFourIsRejected(index: Int) throws {
        let venue = try Venue()
        let (client, server, m3) = try venue.upToMessageThree()
        let (m4, _) = try server.receiveAuth(m3)
        #expect(Self.code { try client.receiveAccept(Self.flipping(m4, at: index)) } == .badSignature)
    }

    @Test func replayedHelloIsOnlyAFreshStartAndOldProofFails() throws {
        let venue = try Venue()
        let earlier = try Self.run(try venue.makeClient(), try venue.makeServer())
        // An eavesdropper replays messages 1 and 3 of the earlier session to a new server.
        let server = try venue.makeServer()
        let m2 = try server.receiveHello(earlier.messages[0])
        #expect(m2 != earlier.messages[1])  // the new server answers with its own fresh ephemeral
        #expect(Self.code { try server.receiveAuth(earlier.messages[2]) } == .badSignature)
    }

    @Test func replayedServerMessagesFailForANewClient() throws {
        let venue = try Venue()
        let earlier = try Self.run(try venue.makeClient(), try venue.makeServer())
        let client = try venue.makeClient()
        _ = client.hello()
        // Message 2 is bound to the earlier client's ephemeral key.
        #expect(Self.code { try client.receiveHello(earlier.messages[1]) } == .wrongNetworkKey)
        // And message 4 of another session does not open under a new session's k1.
        let client2 = try venue.makeClient()
        let server2 = try venue.makeServer()
        _ = try client2.receiveHello(try server2.receiveHello(client2.hello()))
        #expect(Self.code { try client2.receiveAccept(earlier.messages[3]) } == .badSignature)
    }

    // MARK: Low-order points

    @Test(arguments: HandshakeReference.lowOrderPoints.map(\.name))
    func lowOrderClientEphemeralIsRejected(name: String) throws {
        let point = CryptoTestKit.bytes(
            hex: try #require(HandshakeReference.lowOrderPoints.first { $0.name == name }).hex
        )
        #expect(point.count == 32)
        let venue = try Venue()
        let server = try venue.makeServer()
        let hello = HandshakeReference.hello(ephemeral: point, networkKey: venue.key.bytes)
        #expect(Self.code { try server.receiveHello(hello) } == .lowOrderPoint)
    }

    @Test(arguments: HandshakeReference.lowOrderPoints.map(\.name))
    func lowOrderServerEphemeralIsRejected(name: String) throws {
        let point = CryptoTestKit.bytes(
            hex: try #require(HandshakeReference.lowOrderPoints.first { $0.name == name }).hex
        )
        let venue = try Venue()
        let client = try venue.makeClient()
        let hello = client.hello()
        let reply = HandshakeReference.serverHello(
            ephemeral: point,
            clientEphemeral: Array(hello[..<32]),
            networkKey: venue.key.bytes
        )
        #expect(Self.code { try client.receiveHello(reply) } == .lowOrderPoint)
    }

    @Test func reflectedEphemeralIsRejected() throws {
        let venue = try Venue()
        let client = try venue.makeClient()
        let own = Array(client.hello()[..<32])
        let reflected = HandshakeReference.serverHello(
            ephemeral: own,
            clientEphemeral: own,
            networkKey: venue.key.bytes
        )
        #expect(Self.code { try client.receiveHello(reflected) } == .malformed)
    }

    // MARK: Order and sizes

    @Test func clientStepsOutOfOrderAreMalformed() throws {
        let venue = try Venue()
        let server = try venue.makeServer()
        let peek = try venue.makeClient()
        let m2 = try server.receiveHello(peek.hello())

        // receiveHello before hello()
        let early = try venue.makeClient()
        #expect(Self.code { try early.receiveHello(m2) } == .malformed)
        // receiveAccept before receiveHello
        let skipping = try venue.makeClient()
        _ = skipping.hello()
        #expect(
            Self.code { try skipping.receiveAccept([UInt8](repeating: 0, count: HandshakeMessage.authBytes)) }
                == .malformed
        )
        #expect(Self.code { try skipping.receiveHello(m2) } == .malformed, "a failed handshake stays failed")
    }

    @Test func serverStepsOutOfOrderAreMalformed() throws {
        let venue = try Venue()
        let client = try venue.makeClient()
        let server = try venue.makeServer()
        #expect(
            Self.code { try server.receiveAuth([UInt8](repeating: 0, count: HandshakeMessage.authBytes)) } == .malformed
        )
        #expect(Self.code { try server.receiveHello(client.hello()) } == .malformed, "a failed handshake stays failed")

        let server2 = try venue.makeServer()
        _ = try server2.receiveHello(client.hello())
        #expect(Self.code { try server2.receiveHello(client.hello()) } == .malformed, "hello twice")
    }

    @Test func stepsAfterCompletionAreMalformed() throws {
        let venue = try Venue()
        let client = try venue.makeClient()
        let server = try venue.makeServer()
        let transcript = try Self.run(client, server)
        #expect(Self.code { try client.receiveHello(transcript.messages[1]) } == .malformed)
        #expect(Self.code { try client.receiveAccept(transcript.messages[3]) } == .malformed)
        #expect(Self.code { try server.receiveHello(transcript.messages[0]) } == .malformed)
        #expect(Self.code { try server.receiveAuth(transcript.messages[2]) } == .malformed)
        #expect(client.hello() == transcript.messages[0], "hello() cannot throw; it repeats the same public bytes")
    }

    @Test func repeatedHelloReturnsTheSameMessage() throws {
        let client = try Venue().makeClient()
        #expect(client.hello() == client.hello())
    }

    @Test(arguments: [0, 1, 63, 65, 112])
    func wrongSizeHellosAreMalformed(count: Int) throws {
        let venue = try Venue()
        let server = try venue.makeServer()
        #expect(
            Self.code { try server.receiveHello([UInt8](repeating: 7, count: count)) } == .malformed
        )
        let client = try venue.makeClient()
        _ = client.hello()
        #expect(
            Self.code { try client.receiveHello([UInt8](repeating: 7, count: count)) } == .malformed
        )
    }

    @Test(arguments: [0, 16, 64, 111, 113])
    func wrongSizeAuthMessagesAreMalformed(count: Int) throws {
        let venue = try Venue()
        let (client, server, m3) = try venue.upToMessageThree()
        #expect(Self.code { try server.receiveAuth(Array((m3 + m3).prefix(count))) } == .malformed)
        #expect(Self.code { try client.receiveAccept(Array((m3 + m3).prefix(count))) } == .malformed)
    }

    @Test func errorDescriptionIsItsMessage() {
        let error = HandshakeError(.notAuthorized, "Not on the roster.")
        #expect(error.description == "Not on the roster.")
        #expect(error == HandshakeError(.notAuthorized, "Not on the roster."))
        #expect(error != HandshakeError(.malformed, "Not on the roster."))
    }
}
