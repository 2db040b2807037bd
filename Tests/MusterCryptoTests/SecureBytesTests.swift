import MusterCrypto
import MusterTestSupport
import Testing

@Suite("Secure memory and randomness")
struct SecureBytesTests {
    @Test func initCountIsZeroFilled() throws {
        let bytes = try SecureBytes(count: 48)
        #expect(bytes.count == 48)
        #expect(bytes.withUnsafeBytes { $0.allSatisfy { $0 == 0 } })
    }

    @Test func copyingPreservesContents() throws {
        let source: [UInt8] = [1, 2, 3, 250, 0, 7]
        let bytes = try SecureBytes(copying: source)
        #expect(bytes.withUnsafeBytes { Array($0) } == source)
        #expect(try SecureBytes(copying: source.lazy.map { $0 }).withUnsafeBytes { Array($0) } == source)
    }

    @Test func emptyBuffersWork() throws {
        let empty = try SecureBytes(count: 0)
        #expect(empty.count == 0)
        #expect(empty.constantTimeEquals(try SecureBytes(copying: [UInt8]())))
        #expect(empty.withUnsafeBytes { $0.count } == 0)
    }

    @Test func negativeCountIsAnError() {
        let error = thrownError { () throws(MusterCryptoError) in try SecureBytes(count: -1) }
        #expect(error?.code == .badLength)
    }

    @Test func constantTimeEquality() throws {
        let a = try SecureBytes(copying: [1, 2, 3, 4] as [UInt8])
        let b = try SecureBytes(copying: [1, 2, 3, 4] as [UInt8])
        let c = try SecureBytes(copying: [1, 2, 3, 5] as [UInt8])
        let d = try SecureBytes(copying: [1, 2, 3] as [UInt8])
        #expect(a.constantTimeEquals(b))
        #expect(a.constantTimeEquals(a))
        #expect(!a.constantTimeEquals(c))
        #expect(!a.constantTimeEquals(d))
    }

    @Test func randomIsRandom() throws {
        let a = try SecureBytes.random(count: 32)
        let b = try SecureBytes.random(count: 32)
        #expect(a.count == 32)
        #expect(!a.constantTimeEquals(b))
        #expect(!a.constantTimeEquals(try SecureBytes(count: 32)))
    }

    @Test func descriptionDoesNotRevealContents() throws {
        let secret = try SecureBytes(copying: Array("hunter2-very-secret".utf8))
        let hex = CryptoTestKit.hex(of: secret)
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret), dumped] {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains(hex))
            #expect(!text.contains(String(hex.prefix(8))))
        }
        #expect(secret.description.contains("redacted"))
    }

    @Test func secureRandomBytes() {
        #expect(SecureRandom.bytes(count: 0).isEmpty)
        #expect(SecureRandom.bytes(count: -5).isEmpty)
        let a = SecureRandom.bytes(count: 24)
        let b = SecureRandom.bytes(count: 24)
        #expect(a.count == 24 && b.count == 24)
        #expect(a != b)
    }

    @Test func initializationIsIdempotentAndThreadSafe() async throws {
        try Sodium.ensureInitialized()
        try Sodium.ensureInitialized()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { try? Sodium.ensureInitialized() } }
        }
    }

    @Test func errorDescriptionIsItsMessage() {
        let error = MusterCryptoError(.io, "Could not read the file.")
        #expect(error.description == "Could not read the file.")
        #expect(error == MusterCryptoError(.io, "Could not read the file."))
        #expect(error != MusterCryptoError(.badKeyFile, "Could not read the file."))
    }
}
