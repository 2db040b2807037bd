import CSodium
import MusterCrypto
import Testing

/// The client side of the sync handshake written a second time, straight
/// from the protocol description and with libsodium called directly, so the
/// tests check the wire format itself and not merely that `ClientHandshake`
/// and `ServerHandshake` agree with each other. Test code: secrets live in
/// ordinary arrays here.
enum HandshakeReference {
    static let ephemeralBytes = 32

    static func auth(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: Int(crypto_auth_BYTES))
        #expect(crypto_auth(&tag, message, UInt64(message.count), key) == 0)
        return tag
    }

    static func hash(_ input: [UInt8], key: [UInt8]? = nil) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let status: Int32
        if let key {
            status = crypto_generichash(&out, 32, input, UInt64(input.count), key, key.count)
        } else {
            status = crypto_generichash(&out, 32, input, UInt64(input.count), nil, 0)
        }
        #expect(status == 0)
        return out
    }

    static func nonce(_ last: UInt8) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: 24)
        nonce[23] = last
        return nonce
    }

    static func box(_ plaintext: [UInt8], last: UInt8, key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        #expect(crypto_secretbox_easy(&out, plaintext, UInt64(plaintext.count), nonce(last), key) == 0)
        return out
    }

    static func unbox(_ sealed: [UInt8], last: UInt8, key: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: sealed.count - 16)
        guard crypto_secretbox_open_easy(&out, sealed, UInt64(sealed.count), nonce(last), key) == 0 else { return nil }
        return out
    }

    static func label(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A valid message 1 for an arbitrary (possibly hostile) ephemeral point.
    static func hello(ephemeral: [UInt8], networkKey: [UInt8]) -> [UInt8] {
        ephemeral + auth(ephemeral, key: networkKey)
    }

    /// A message 2 for an arbitrary server ephemeral point, answering the client's `clientEphemeral`.
    static func serverHello(ephemeral: [UInt8], clientEphemeral: [UInt8], networkKey: [UInt8]) -> [UInt8] {
        ephemeral + auth(ephemeral + clientEphemeral, key: networkKey)
    }

    /// Known low-order X25519 points (libsodium's blocklist in
    /// crypto_scalarmult/curve25519/ref10), plus one with the ignored top bit set.
    static let lowOrderPoints: [(name: String, hex: String)] = [
        ("0 (order 4)", "0000000000000000000000000000000000000000000000000000000000000000"),
        ("1 (order 1)", "0100000000000000000000000000000000000000000000000000000000000000"),
        ("order 8, first", "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
        ("order 8, second", "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
        ("p - 1 (order 2)", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        ("p (= 0, order 4)", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        ("p + 1 (= 1, order 1)", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
        ("0 with top bit set", "0000000000000000000000000000000000000000000000000000000000000080"),
    ]

    /// A client run by hand. `forge` lets a test break one rule of the
    /// protocol while keeping everything else valid.
    final class Client {
        enum Forgery { case none, signWrongTranscript, presentOtherKey(SigningPublicKey) }

        let networkKey: [UInt8]
        let keyPair: SigningKeyPair
        let ephemeralSecret: [UInt8]
        let ephemeralPublic: [UInt8]
        private(set) var serverEphemeral: [UInt8] = []
        private(set) var shared: [UInt8] = []
        private(set) var boxKey: [UInt8] = []
        private(set) var signature: [UInt8] = []

        init(networkKey: [UInt8], keyPair: SigningKeyPair) {
            self.networkKey = networkKey
            self.keyPair = keyPair
            var secret = [UInt8](repeating: 0, count: 32)
            randombytes_buf(&secret, 32)
            var point = [UInt8](repeating: 0, count: 32)
            #expect(crypto_scalarmult_base(&point, secret) == 0)
            ephemeralSecret = secret
            ephemeralPublic = point
        }

        func hello() -> [UInt8] { HandshakeReference.hello(ephemeral: ephemeralPublic, networkKey: networkKey) }

        /// Checks message 2 and returns message 3, or nil if message 2 is invalid.
        func auth(_ message2: [UInt8], forge: Forgery = .none) -> [UInt8]? {
            guard message2.count == 64 else { return nil }
            let b = Array(message2[..<32])
            let tag = Array(message2[32...])
            let ab = b + ephemeralPublic
            guard crypto_auth_verify(tag, ab, UInt64(ab.count), networkKey) == 0 else { return nil }
            serverEphemeral = b
            var shared = [UInt8](repeating: 0, count: 32)
            guard crypto_scalarmult(&shared, ephemeralSecret, b) == 0 else { return nil }
            self.shared = shared
            boxKey = hash(label("muster-shs-v1 box") + shared + ephemeralPublic + b, key: networkKey)
            var transcript = label("muster-shs-v1 client") + hash(networkKey) + ephemeralPublic + b + hash(shared)
            if case .signWrongTranscript = forge { transcript[0] ^= 1 }
            signature = keyPair.sign(transcript)
            var presented = keyPair.publicKey.bytes
            if case let .presentOtherKey(other) = forge { presented = other.bytes }
            return box(presented + signature, last: 1, key: boxKey)
        }

        /// Checks message 4 and returns the server key and the two session keys, or nil.
        func accept(_ message4: [UInt8]) -> (server: SigningPublicKey, c2s: [UInt8], s2c: [UInt8])? {
            guard let plain = unbox(message4, last: 2, key: boxKey), plain.count == 96,
                let server = try? SigningPublicKey(bytes: plain[..<32])
            else { return nil }
            let transcript =
                label("muster-shs-v1 server") + hash(networkKey) + ephemeralPublic + serverEphemeral
                + hash(shared) + keyPair.publicKey.bytes + signature
            guard server.isValidSignature(plain[32...], for: transcript) else { return nil }
            let tail = shared + keyPair.publicKey.bytes + server.bytes + ephemeralPublic + serverEphemeral
            return (
                server,
                hash(label("muster-shs-v1 c2s") + tail, key: networkKey),
                hash(label("muster-shs-v1 s2c") + tail, key: networkKey)
            )
        }
    }
}
