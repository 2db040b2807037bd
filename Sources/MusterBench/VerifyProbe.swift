import MusterCrypto

/// The raw Ed25519 verify rate: libsodium through ``SigningPublicKey/isValidSignature(_:for:)``
/// over ~200-byte messages (the size of a check-in envelope), one key, no SQLite.
enum VerifyProbe {
    static func run(count: Int) throws -> Double {
        let key = try SigningKeyPair.generate()
        var generator = SystemRandomNumberGenerator()
        let messages = (0..<256).map { _ in (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let signatures = messages.map { key.sign($0) }
        let (valid, seconds) = Stopwatch.time {
            var valid = 0
            for index in 0..<count
            where key.publicKey.isValidSignature(
                signatures[index % messages.count],
                for: messages[index % messages.count]
            ) {
                valid += 1
            }
            return valid
        }
        guard valid == count else { throw BenchError(.wrongResult, "\(count - valid) signatures did not verify") }
        return Double(count) / seconds
    }
}
