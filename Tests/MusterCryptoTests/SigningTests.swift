import MusterCrypto
import MusterTestSupport
import Testing

@Suite("Ed25519 signing")
struct SigningTests {
    let message = Array("check-in: attendee 42 at door B".utf8)

    @Test func signAndVerifyRoundTrip() throws {
        let pair = try SigningKeyPair.generate()
        let signature = pair.sign(message)
        #expect(signature.count == 64)
        #expect(pair.publicKey.isValidSignature(signature, for: message))
        #expect(pair.publicKey.isValidSignature(signature, for: message[...]))  // slices work too
    }

    @Test func emptyMessageRoundTrip() throws {
        let pair = try SigningKeyPair.generate()
        #expect(pair.publicKey.isValidSignature(pair.sign([UInt8]()), for: [UInt8]()))
    }

    @Test func tamperedMessageIsRejected() throws {
        let pair = try SigningKeyPair.generate()
        let signature = pair.sign(message)
        var tampered = message
        tampered[3] ^= 0x01
        #expect(!pair.publicKey.isValidSignature(signature, for: tampered))
        #expect(!pair.publicKey.isValidSignature(signature, for: message.dropLast()))
    }

    @Test func tamperedSignatureIsRejected() throws {
        let pair = try SigningKeyPair.generate()
        let signature = pair.sign(message)
        for index in [0, 31, 32, 63] {
            var tampered = signature
            tampered[index] ^= 0x80
            #expect(!pair.publicKey.isValidSignature(tampered, for: message), "flipped byte \(index)")
        }
    }

    @Test func wrongKeyIsRejected() throws {
        let signer = try SigningKeyPair.generate()
        let other = try SigningKeyPair.generate()
        #expect(signer.publicKey != other.publicKey)
        #expect(!other.publicKey.isValidSignature(signer.sign(message), for: message))
    }

    @Test(arguments: [0, 1, 63, 65, 128])
    func wrongLengthSignatureIsRejected(length: Int) throws {
        let pair = try SigningKeyPair.generate()
        var signature = pair.sign(message)
        signature = Array((signature + signature + signature).prefix(length))
        #expect(!pair.publicKey.isValidSignature(signature, for: message))
    }

    /// RFC 8032, section 7.1, test 1 (empty message).
    @Test func rfc8032KnownAnswer() throws {
        let seed = try SecureBytes(
            copying: CryptoTestKit.bytes(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        )
        let pair = try SigningKeyPair(seed: seed)
        #expect(pair.publicKey.hex == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let expected =
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        #expect(CryptoTestKit.hex(pair.sign([UInt8]())) == expected)
        #expect(pair.seed.constantTimeEquals(seed))
    }

    @Test func sameSeedGivesSameKey() throws {
        let pair = try SigningKeyPair.generate()
        let again = try SigningKeyPair(seed: pair.seed)
        #expect(again.publicKey == pair.publicKey)
    }

    @Test(arguments: [0, 16, 31, 33, 64])
    func seedOfWrongLengthIsRejected(length: Int) throws {
        let seed = try SecureBytes(count: length)
        let error = thrownError { () throws(MusterCryptoError) in try SigningKeyPair(seed: seed) }
        #expect(error?.code == .badLength)
    }

    @Test func publicKeyHexRoundTrip() throws {
        let pair = try SigningKeyPair.generate()
        let hex = pair.publicKey.hex
        #expect(hex.count == 64)
        #expect(hex == hex.lowercased())
        #expect(try SigningPublicKey(hex: hex) == pair.publicKey)
        #expect(try SigningPublicKey(hex: hex.uppercased() + "\n") == pair.publicKey)
        #expect(pair.publicKey.description == hex)
    }

    @Test(arguments: [
        "", "abc", String(repeating: "0", count: 63), String(repeating: "zz", count: 32),
        String(repeating: "00", count: 33),
    ])
    func malformedPublicKeyHexIsRejected(text: String) {
        let error = thrownError { () throws(MusterCryptoError) in try SigningPublicKey(hex: text) }
        #expect(error?.code == .badLength)
    }

    @Test func publicKeyFromWrongLengthBytesIsRejected() {
        let error = thrownError { () throws(MusterCryptoError) in
            try SigningPublicKey(bytes: [UInt8](repeating: 1, count: 31))
        }
        #expect(error?.code == .badLength)
    }

    @Test func fingerprintFormat() throws {
        let pattern = /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/
        for _ in 0..<5 {
            let fingerprint = try SigningKeyPair.generate().publicKey.fingerprint
            #expect(fingerprint.wholeMatch(of: pattern) != nil, "\(fingerprint)")
        }
        // RFC 8032 test key: BLAKE2b-256(pk)[0..<8] = 7849ac3049680be1 (computed with Python hashlib).
        let known = try SigningPublicKey(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        #expect(known.fingerprint == "7849-ac30-4968-0be1")
    }

    @Test func keyPairDescriptionRedactsSecret() throws {
        let pair = try SigningKeyPair.generate()
        let seedHex = CryptoTestKit.hex(of: pair.seed)
        var dumped = ""
        dump(pair, to: &dumped)
        for text in [
            pair.description, pair.debugDescription, String(describing: pair), String(reflecting: pair), dumped,
        ] {
            #expect(!text.contains(seedHex))
            #expect(!text.contains(String(seedHex.prefix(16))))
        }
        #expect(pair.description.contains(pair.publicKey.fingerprint))
    }

    @Test func concurrentSigningIsSafe() async throws {
        let pair = try SigningKeyPair.generate()
        let message = self.message
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { pair.publicKey.isValidSignature(pair.sign(message), for: message) }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 16 && results.allSatisfy { $0 })
    }
}
