import Foundation
import MusterCrypto
import MusterTestSupport
import Testing

@Suite("Key files")
struct KeyFileTests {
    static let passphrase = "correct horse battery staple"

    /// Runs `body` with a fresh directory and a fresh key pair, cleaning up afterwards.
    func withKeyDirectory(_ body: (String, SigningKeyPair) throws -> Void) throws {
        try withTemporaryDirectory { try body($0, try SigningKeyPair.generate()) }
    }

    func readError(_ path: String, passphrase: String? = nil) -> MusterCryptoError? {
        thrownError { () throws(MusterCryptoError) in try KeyFile.read(from: path, passphrase: { passphrase }) }
    }

    @Test func plainRoundTrip() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: nil)
            #expect(try KeyFile.isSealed(path: path) == false)

            var asked = false
            let loaded = try KeyFile.read(
                from: path,
                passphrase: {
                    asked = true
                    return nil
                }
            )
            #expect(!asked, "the passphrase closure must not be called for an unsealed file")
            #expect(loaded.publicKey == pair.publicKey)
            #expect(loaded.seed.constantTimeEquals(pair.seed))

            let text = try CryptoTestKit.contents(of: path)
            #expect(text.contains("format = \"muster-key-v1\""))
            #expect(text.contains("public = \"\(pair.publicKey.hex)\""))
            #expect(text.contains("seed = \"\(CryptoTestKit.hex(of: pair.seed))\""))
            #expect(!text.contains("sealed_seed"))
        }
    }

    @Test func sealedRoundTrip() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: Self.passphrase)
            #expect(try KeyFile.isSealed(path: path))

            var calls = 0
            let loaded = try KeyFile.read(
                from: path,
                passphrase: {
                    calls += 1
                    return Self.passphrase
                }
            )
            #expect(calls == 1)
            #expect(loaded.publicKey == pair.publicKey)
            #expect(loaded.seed.constantTimeEquals(pair.seed))

            let text = try CryptoTestKit.contents(of: path)
            #expect(!text.contains(CryptoTestKit.hex(of: pair.seed)))
            #expect(!text.contains("\nseed ="))
            for field in [
                "kdf = \"argon2id13\"", "salt = \"", "opslimit = 2\n", "memlimit = 67108864\n", "nonce = \"",
                "sealed_seed = \"",
            ] {
                #expect(text.contains(field), "missing \(field)")
            }
            // The signing key still works after the round trip.
            let message = Array("roster".utf8)
            #expect(pair.publicKey.isValidSignature(loaded.sign(message), for: message))
        }
    }

    @Test func wrongPassphraseIsReported() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: Self.passphrase)
            let error = readError(path, passphrase: "Correct horse battery staple")
            #expect(error?.code == .wrongPassphrase)
            #expect(readError(path, passphrase: "")?.code == .wrongPassphrase)
        }
    }

    @Test func missingPassphraseIsReported() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: Self.passphrase)
            #expect(readError(path, passphrase: nil)?.code == .passphraseRequired)

            struct Cancelled: Error {}
            let thrown = thrownError { () throws(MusterCryptoError) in
                try KeyFile.read(from: path, passphrase: { throw Cancelled() })
            }
            #expect(thrown?.code == .passphraseRequired)
        }
    }

    @Test func emptyPassphraseIsRefusedWhenWriting() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            let error = thrownError { () throws(MusterCryptoError) in
                try KeyFile.write(pair, to: path, passphrase: "")
            }
            #expect(error?.code == .badLength)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test(arguments: [false, true])
    func fileModeIs0600(sealed: Bool) throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/kiosk.key"
            try KeyFile.write(pair, to: path, passphrase: sealed ? Self.passphrase : nil)
            #expect(try FilePermissions.mode(of: path) == 0o600)
            // No temporary files are left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["kiosk.key"])
        }
    }

    @Test func secretFileIs0600AndRespectsOverwrite() throws {
        let temporary = try TemporaryDirectory("muster-crypto")
        defer { temporary.remove() }
        let directory = temporary.path
        let path = directory + "/venue.toml"
        try KeyFile.writeSecretFile("token = \"abc\"\n", to: path, overwrite: false)
        #expect(try FilePermissions.mode(of: path) == 0o600)
        #expect(try CryptoTestKit.contents(of: path) == "token = \"abc\"\n")

        let refused = thrownError { () throws(MusterCryptoError) in
            try KeyFile.writeSecretFile("token = \"xyz\"\n", to: path, overwrite: false)
        }
        #expect(refused?.code == .io)
        #expect(try CryptoTestKit.contents(of: path) == "token = \"abc\"\n")

        try FilePermissions.set(0o644, of: path)
        try KeyFile.writeSecretFile("token = \"xyz\"\n", to: path, overwrite: true)
        #expect(try CryptoTestKit.contents(of: path) == "token = \"xyz\"\n")
        #expect(try FilePermissions.mode(of: path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["venue.toml"])
    }

    @Test func keyFileIsNotOverwrittenByDefault() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: nil)
            let other = try SigningKeyPair.generate()
            let error = thrownError { () throws(MusterCryptoError) in
                try KeyFile.write(other, to: path, passphrase: nil)
            }
            #expect(error?.code == .io)
            #expect(try KeyFile.read(from: path, passphrase: { nil }).publicKey == pair.publicKey)

            try KeyFile.write(other, to: path, passphrase: nil, overwrite: true)
            #expect(try KeyFile.read(from: path, passphrase: { nil }).publicKey == other.publicKey)
        }
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func groupOrWorldAccessibleFileIsRefused(mode: Int) throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: nil)
            try FilePermissions.set(mode, of: path)
            let error = readError(path)
            #expect(error?.code == .badKeyFile)
            #expect(error?.message.contains("chmod 600") == true)
            #expect(
                thrownError { () throws(MusterCryptoError) in try KeyFile.isSealed(path: path) }?.code
                    == .badKeyFile
            )

            try FilePermissions.set(0o400, of: path)
            #expect(try KeyFile.read(from: path, passphrase: { nil }).publicKey == pair.publicKey)
        }
    }

    @Test func seedNotMatchingPublicKeyIsRefused() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            let impostor = try SigningKeyPair.generate()
            let text = """
                # Muster signing key. Keep this file secret.
                format = "muster-key-v1"
                public = "\(pair.publicKey.hex)"
                seed = "\(CryptoTestKit.hex(of: impostor.seed))"

                """
            try KeyFile.writeSecretFile(text, to: path, overwrite: false)
            let error = readError(path)
            #expect(error?.code == .badKeyFile)
            #expect(error?.message.contains("public key") == true)
        }
    }

    @Test func sealedFileWithSwappedPublicKeyIsRefused() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: Self.passphrase)
            let other = try SigningKeyPair.generate()
            let text = try CryptoTestKit.contents(of: path)
                .replacingOccurrences(of: pair.publicKey.hex, with: other.publicKey.hex)
            try KeyFile.writeSecretFile(text, to: path, overwrite: true)
            #expect(readError(path, passphrase: Self.passphrase)?.code == .badKeyFile)
        }
    }

    @Test func malformedFilesAreRefused() throws {
        try withKeyDirectory { directory, pair in
            let seedHex = CryptoTestKit.hex(of: pair.seed)
            let publicLine = "public = \"\(pair.publicKey.hex)\"\n"
            let header = "format = \"muster-key-v1\"\n"
            let cases: [String: String] = [
                "empty": "",
                "no format": publicLine + "seed = \"\(seedHex)\"\n",
                "future format": "format = \"muster-key-v9\"\n" + publicLine + "seed = \"\(seedHex)\"\n",
                "no seed": header + publicLine,
                "short seed": header + publicLine + "seed = \"\(seedHex.dropLast(2))\"\n",
                "non-hex seed": header + publicLine + "seed = \"\(seedHex.dropLast(2))zz\"\n",
                "unquoted seed": header + publicLine + "seed = \(seedHex)\n",
                "unterminated seed": header + publicLine + "seed = \"\(seedHex)\n",
                "seed as field name": header + publicLine + "\(seedHex) = \"x\"\n",
                "bare seed line": header + publicLine + "\(seedHex)\n",
                "duplicate seed": header + publicLine + "seed = \"\(seedHex)\"\nseed = \"\(seedHex)\"\n",
                "seed and sealed": header + publicLine + "seed = \"\(seedHex)\"\nkdf = \"argon2id13\"\n",
                "trailing text": header + publicLine + "seed = \"\(seedHex)\" \(seedHex)\n",
                "bad public": header + "public = \"1234\"\nseed = \"\(seedHex)\"\n",
                "unknown kdf": header + publicLine + "kdf = \"scrypt\"\nsalt = \"00\"\n",
            ]
            for (name, text) in cases {
                let path = directory + "/\(name.replacingOccurrences(of: " ", with: "-")).key"
                try KeyFile.writeSecretFile(text, to: path, overwrite: false)
                let error = readError(path)
                #expect(error?.code == .badKeyFile, "\(name): \(String(describing: error))")
                #expect(error.map { !$0.description.contains(seedHex) } ?? false, "\(name) leaked the seed")
                #expect(
                    error.map { !$0.description.contains(String(seedHex.prefix(16))) } ?? false,
                    "\(name) leaked part of the seed"
                )
            }
        }
    }

    @Test func hostileArgon2ParametersAreRefused() throws {
        try withKeyDirectory { directory, pair in
            let path = directory + "/organizer.key"
            try KeyFile.write(pair, to: path, passphrase: Self.passphrase)
            let text = try CryptoTestKit.contents(of: path)
                .replacingOccurrences(of: "memlimit = 67108864", with: "memlimit = 1099511627776")
            try KeyFile.writeSecretFile(text, to: path, overwrite: true)
            var asked = false
            let error = thrownError { () throws(MusterCryptoError) in
                try KeyFile.read(
                    from: path,
                    passphrase: {
                        asked = true
                        return Self.passphrase
                    }
                )
            }
            #expect(error?.code == .badKeyFile)
            #expect(!asked)
        }
    }

    @Test func missingFileIsAnIOError() throws {
        let temporary = try TemporaryDirectory("muster-crypto")
        defer { temporary.remove() }
        let directory = temporary.path
        #expect(readError(directory + "/absent.key")?.code == .io)
        #expect(readError(directory)?.code != nil)  // a directory is not a key file
    }

    @Test func errorDescriptionsNeverContainTheSeed() throws {
        try withKeyDirectory { directory, pair in
            let seedHex = CryptoTestKit.hex(of: pair.seed)
            var errors: [MusterCryptoError] = []

            let plain = directory + "/plain.key"
            try KeyFile.write(pair, to: plain, passphrase: nil)
            try FilePermissions.set(0o644, of: plain)
            errors += [readError(plain)].compactMap { $0 }
            try FilePermissions.set(0o600, of: plain)
            errors += [
                thrownError { () throws(MusterCryptoError) in try KeyFile.write(pair, to: plain, passphrase: nil)
                }
            ].compactMap { $0 }

            let mismatched = directory + "/mismatched.key"
            let other = try SigningKeyPair.generate()
            try KeyFile.writeSecretFile(
                "format = \"muster-key-v1\"\npublic = \"\(other.publicKey.hex)\"\nseed = \"\(seedHex)\"\n",
                to: mismatched,
                overwrite: false
            )
            errors += [readError(mismatched)].compactMap { $0 }

            let sealed = directory + "/sealed.key"
            try KeyFile.write(pair, to: sealed, passphrase: Self.passphrase)
            errors += [readError(sealed, passphrase: "wrong"), readError(sealed, passphrase: nil)].compactMap { $0 }

            #expect(errors.count == 5)
            for error in errors {
                #expect(!error.description.contains(seedHex), "\(error.code)")
                #expect(!error.message.contains(String(seedHex.prefix(16))), "\(error.code)")
                #expect(!error.description.contains(Self.passphrase))
                #expect(!error.description.isEmpty)
            }
        }
    }
}
