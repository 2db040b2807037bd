import MusterCore
import MusterCrypto
import Testing

@testable import MusterClient
@testable import MusterRules

/// `muster revoke KIOSK`: the kiosk is found by what a person can read, including the fingerprint its own
/// `muster status` prints (a hash of the key, not a prefix of it).
@Suite("Revocation.find")
struct RevocationFindTests {
    static func roster() throws -> [RosterEntry] {
        try ["Hall A", "Hall B", "Annex"].map { name in
            let key = try SigningKeyPair.generate()
            return RosterEntry(kiosk: AuthorID(key.publicKey), name: name, location: "Door", revokedWatermark: nil)
        }
    }

    static func fingerprint(_ entry: RosterEntry) throws -> String {
        try SigningPublicKey(bytes: entry.kiosk.bytes).fingerprint
    }

    @Test("the fingerprint muster status prints finds the kiosk, with or without dashes, in any case")
    func fingerprintFindsTheKiosk() throws {
        let roster = try Self.roster()
        for entry in roster {
            let printed = try Self.fingerprint(entry)
            #expect(try Revocation.find(printed, in: roster) == entry)
            #expect(try Revocation.find(printed.uppercased(), in: roster) == entry)
            #expect(try Revocation.find(printed.replacingOccurrences(of: "-", with: ""), in: roster) == entry)
            #expect(try Revocation.find("  " + printed + "\n", in: roster) == entry)
        }
    }

    @Test func nameAndKeyStillWork() throws {
        let roster = try Self.roster()
        #expect(try Revocation.find("hall b", in: roster) == roster[1])
        #expect(try Revocation.find(String(roster[2].kiosk.hex.prefix(12)), in: roster) == roster[2])
    }

    /// A kiosk whose disk was lost comes back under its old name with a new key: the name alone is ambiguous,
    /// and the answer lists each key's fingerprint, so the one its own `muster status` shows can be given.
    @Test func aReenrolledNameListsEveryFingerprint() throws {
        let roster = try Self.roster()
        let again = RosterEntry(
            kiosk: AuthorID(try SigningKeyPair.generate().publicKey),
            name: "Hall B",
            location: "Door",
            revokedWatermark: nil
        )
        let both = roster + [again]
        let error = try #require(throws: ClientError.self) { try Revocation.find("Hall B", in: both) }
        #expect(error.code == .usage)
        #expect(error.message.contains("matches 2 kiosks"))
        #expect(error.message.contains(try Self.fingerprint(roster[1])))
        #expect(error.message.contains(try Self.fingerprint(again)))
        #expect(try Revocation.find(try Self.fingerprint(again), in: both) == again)
    }

    @Test func unknownFingerprintIsNotFound() throws {
        let roster = try Self.roster()
        let error = try #require(throws: ClientError.self) { try Revocation.find("0000-0000-0000-0000", in: roster) }
        #expect(error.code == .notFound)
        #expect(error.message.contains("no kiosk named or keyed '0000-0000-0000-0000' on the roster"))
        #expect(throws: ClientError.self) { try Revocation.find("abc", in: roster) }
    }
}
