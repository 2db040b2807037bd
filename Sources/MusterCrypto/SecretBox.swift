import CSodium

/// libsodium's secretbox (XSalsa20-Poly1305) under a key held in guarded memory: the box of the
/// handshake's messages 3 and 4 and of a passphrase-sealed key file. Callers check the status,
/// each with the error their caller can act on.
enum SecretBox {
    /// Bytes a box is longer than its plaintext (the Poly1305 tag).
    static var overhead: Int { crypto_secretbox_macbytes() }

    /// `crypto_secretbox_easy` of the `count` bytes at `message`: the box (`count` + ``overhead``
    /// bytes) and libsodium's status.
    static func seal(
        _ message: UnsafePointer<UInt8>,
        count: Int,
        nonce: [UInt8],
        key: SecureBytes
    ) -> (box: [UInt8], status: Int32) {
        var box = [UInt8](repeating: 0, count: count + overhead)
        let status = key.withBytePointer { keyPointer in
            crypto_secretbox_easy(&box, message, UInt64(count), nonce, keyPointer)
        }
        return (box, status)
    }

    /// `crypto_secretbox_open_easy` of `box` into the `box.count - overhead` bytes at `plaintext`:
    /// libsodium's status, non-zero when the box does not authenticate under `key`.
    static func open(
        _ box: [UInt8],
        into plaintext: UnsafeMutablePointer<UInt8>,
        nonce: [UInt8],
        key: SecureBytes
    ) -> Int32 {
        key.withBytePointer { keyPointer in
            crypto_secretbox_open_easy(plaintext, box, UInt64(box.count), nonce, keyPointer)
        }
    }
}
