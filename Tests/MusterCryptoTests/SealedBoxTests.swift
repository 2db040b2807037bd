import Testing

@testable import MusterCrypto

@Suite struct SealedBoxTests {
    @Test func onlyTheRecipientOpensIt() throws {
        let kiosk = try SigningKeyPair.generate()
        let other = try SigningKeyPair.generate()
        let secret = try SecureBytes.random(count: 32)
        let sealed = try SealedBox.seal(secret, to: kiosk.publicKey)
        #expect(sealed.count == 32 + SealedBox.overhead)
        #expect(try SealedBox.open(sealed, with: kiosk).constantTimeEquals(secret))
        #expect(throws: MusterCryptoError.self) { try SealedBox.open(sealed, with: other) }
    }

    @Test func tamperingIsDetected() throws {
        let kiosk = try SigningKeyPair.generate()
        let sealed = try SealedBox.seal(try SecureBytes.random(count: 32), to: kiosk.publicKey)
        for index in [0, 31, 40, sealed.count - 1] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: MusterCryptoError.self) { try SealedBox.open(altered, with: kiosk) }
        }
        #expect(throws: MusterCryptoError.self) { try SealedBox.open(Array(sealed.prefix(40)), with: kiosk) }
    }

    @Test func sealingTwiceGivesDifferentBytes() throws {
        let kiosk = try SigningKeyPair.generate()
        let secret = try SecureBytes.random(count: 32)
        #expect(try SealedBox.seal(secret, to: kiosk.publicKey) != SealedBox.seal(secret, to: kiosk.publicKey))
    }
}
