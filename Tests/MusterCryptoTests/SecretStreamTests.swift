import MusterCrypto
import Testing

@Suite("secretstream")
struct SecretStreamTests {
    static func pair(key: SecureBytes? = nil) throws -> (SecretStreamSender, SecretStreamReceiver) {
        let key = try key ?? SecureBytes.random(count: 32)
        let sender = try SecretStreamSender(key: key)
        return (sender, try SecretStreamReceiver(key: key, header: sender.header))
    }

    static let messages: [[UInt8]] = [
        Array("heads: kiosk-a 12".utf8), [], [0], Array(repeating: 0xAB, count: 4096), Array("bye".utf8),
    ]

    @Test func roundTripOfSeveralMessages() throws {
        let (sender, receiver) = try Self.pair()
        #expect(sender.header.count == SecretStreamReceiver.headerBytes)
        #expect(SecretStreamReceiver.headerBytes == 24 && SecretStreamReceiver.overheadBytes == 17)
        for (index, message) in Self.messages.enumerated() {
            let sealed = try sender.seal(message)
            #expect(sealed.count == message.count + SecretStreamReceiver.overheadBytes)
            let opened = try receiver.open(sealed)
            #expect(opened.plaintext == message, "message \(index)")
            #expect(!opened.final)
        }
    }

    @Test func acceptsAnyByteCollection() throws {
        let (sender, receiver) = try Self.pair()
        let text = "Zoë checked in ✓"
        #expect(try receiver.open(sender.seal(text.utf8)).plaintext == Array(text.utf8))
        let bytes = Array(text.utf8)
        #expect(try receiver.open(sender.seal(bytes.reversed().reversed())[...]).plaintext == bytes)
    }

    @Test func sameMessageSealsDifferently() throws {
        let (sender, receiver) = try Self.pair()
        let first = try sender.seal(Self.messages[0])
        let second = try sender.seal(Self.messages[0])
        #expect(first != second)
        #expect(try receiver.open(first).plaintext == Self.messages[0])
        #expect(try receiver.open(second).plaintext == Self.messages[0])
    }

    @Test func headersAreFreshPerStream() throws {
        let key = try SecureBytes.random(count: 32)
        #expect(try SecretStreamSender(key: key).header != SecretStreamSender(key: key).header)
    }

    @Test(arguments: [0, 1, 16, 17, 20])
    func tamperedMessageIsRejected(index: Int) throws {
        let (sender, receiver) = try Self.pair()
        var sealed = try sender.seal(Array("check-in 42 at door B".utf8))
        sealed[index] ^= 0x01
        let error = CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(sealed) }
        #expect(error?.code == .badSignature)
    }

    @Test func reorderedMessagesAreRejected() throws {
        let (sender, receiver) = try Self.pair()
        let first = try sender.seal(Self.messages[0])
        let second = try sender.seal(Self.messages[2])
        #expect(CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(second) }?.code == .badSignature)
        // The receiver stays closed after a failure, even for the right message.
        #expect(CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(first) }?.code == .badSignature)
    }

    @Test func droppedMessageIsDetected() throws {
        let (sender, receiver) = try Self.pair()
        _ = try sender.seal(Self.messages[0])
        let second = try sender.seal(Self.messages[2])
        #expect(CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(second) }?.code == .badSignature)
    }

    @Test func replayedMessageIsRejected() throws {
        let (sender, receiver) = try Self.pair()
        let first = try sender.seal(Self.messages[0])
        #expect(try receiver.open(first).plaintext == Self.messages[0])
        #expect(CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(first) }?.code == .badSignature)
    }

    @Test func replayIntoAnotherStreamUnderTheSameKeyIsRejected() throws {
        let key = try SecureBytes.random(count: 32)
        let (sender, _) = try Self.pair(key: key)
        let (_, otherReceiver) = try Self.pair(key: key)
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try otherReceiver.open(sender.seal(Self.messages[0])) }?.code
                == .badSignature
        )
    }

    @Test(arguments: [0, 1, 16, 17, 20])
    func truncatedMessageIsRejected(length: Int) throws {
        let (sender, receiver) = try Self.pair()
        let sealed = try sender.seal(Array("check-in 42 at door B".utf8))  // 21 + 17 bytes
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(sealed.prefix(length)) }?.code
                == .badSignature
        )
    }

    @Test func messageCutShortOfItsEndIsRejected() throws {
        let (sender, receiver) = try Self.pair()
        let sealed = try sender.seal(Array(repeating: 7, count: 100))
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(sealed.dropLast()) }?.code == .badSignature
        )
    }

    @Test func finalTagIsDetectedAndEndsTheStream() throws {
        let (sender, receiver) = try Self.pair()
        #expect(try receiver.open(sender.seal(Self.messages[0])).final == false)
        let last = try sender.seal(Array("goodbye".utf8), final: true)
        let opened = try receiver.open(last)
        #expect(opened.final)
        #expect(opened.plaintext == Array("goodbye".utf8))
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try sender.seal(Self.messages[0]) } != nil,
            "nothing may be sealed after final"
        )
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(last) }?.code == .badSignature,
            "nothing may be opened after final"
        )
    }

    @Test func emptyFinalMessage() throws {
        let (sender, receiver) = try Self.pair()
        let opened = try receiver.open(sender.seal([UInt8](), final: true))
        #expect(opened.final && opened.plaintext.isEmpty)
    }

    @Test func truncatedStreamIsVisibleAsMissingFinal() throws {
        // Dropping the final message leaves the receiver without a final tag; the
        // caller tells a clean end from a cut connection by that flag.
        let (sender, receiver) = try Self.pair()
        let body = try sender.seal(Self.messages[0])
        _ = try sender.seal(Self.messages[4], final: true)
        #expect(try receiver.open(body).final == false)
    }

    @Test func wrongKeyIsRejected() throws {
        let sender = try SecretStreamSender(key: SecureBytes.random(count: 32))
        let receiver = try SecretStreamReceiver(key: SecureBytes.random(count: 32), header: sender.header)
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(sender.seal(Self.messages[0])) }?.code
                == .badSignature
        )
    }

    @Test func wrongHeaderIsRejected() throws {
        let key = try SecureBytes.random(count: 32)
        let sender = try SecretStreamSender(key: key)
        var header = sender.header
        header[0] ^= 1
        let receiver = try SecretStreamReceiver(key: key, header: header)
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) { try receiver.open(sender.seal(Self.messages[0])) }?.code
                == .badSignature
        )
    }

    @Test(arguments: [0, 16, 31, 33, 64])
    func wrongKeyLengthIsRefused(count: Int) throws {
        let key = try SecureBytes.random(count: count)
        #expect(CryptoTestKit.error(MusterCryptoError.self) { try SecretStreamSender(key: key) }?.code == .badLength)
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) {
                try SecretStreamReceiver(key: key, header: [UInt8](repeating: 0, count: 24))
            }?.code
                == .badLength
        )
    }

    @Test(arguments: [0, 23, 25])
    func wrongHeaderLengthIsRefused(count: Int) throws {
        let key = try SecureBytes.random(count: 32)
        #expect(
            CryptoTestKit.error(MusterCryptoError.self) {
                try SecretStreamReceiver(key: key, header: [UInt8](repeating: 0, count: count))
            }?.code
                == .badLength
        )
    }

    @Test func manyStreamsAllocateAndReleaseCleanly() throws {
        for _ in 0..<200 {
            let (sender, receiver) = try Self.pair()
            #expect(try receiver.open(sender.seal(Self.messages[0])).plaintext == Self.messages[0])
        }
    }
}
