import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

/// The organizer key's record of its last signature, without a daemon (issue 32, item 16).
@Suite("SignedHeadRecord")
struct SignedHeadRecordTests {
    static func head(_ author: AuthorID, _ seq: UInt64, _ byte: UInt8) -> AuthorHead {
        AuthorHead(author: author, seq: seq, hash: [UInt8](repeating: byte, count: 32))
    }

    @Test func theKeysChainEndDecidesWhichHeadsItSignsOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let author = AuthorID(try SigningKeyPair.generate().publicKey)
        let record = SignedHeadRecord(path: SignedHeadRecord.path(forKey: directory.file("organizer.key")))
        try record.check(offered: Self.head(author, 0, 0))  // no record yet: the first signature anywhere
        try record.save(Self.head(author, 7, 0xAB))
        #expect(try FilePermissions.mode(of: record.path) == 0o600)
        #expect(try record.load()?.seq == 7)

        try record.check(offered: Self.head(author, 7, 0xAB))  // the same head: signs on
        try record.check(offered: Self.head(author, 9, 0x01))  // later: the record lagged, believed
        for behind in [Self.head(author, 6, 0xAB), Self.head(author, 7, 0xCD)] {
            do {
                try record.check(offered: behind)
                Issue.record("signed on \(behind.seq), which forks the chain at or below 7")
            } catch {
                #expect(error.code == .refused)
                #expect(error.message.contains("last signed seq 7"), "\(error.message)")
                #expect(error.message.contains(record.path), "\(error.message)")
            }
        }
    }

    @Test func aDamagedRecordIsAConfigurationError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let record = SignedHeadRecord(path: directory.file("organizer.key.signed"))
        try "seq = seven\n".write(toFile: record.path, atomically: true, encoding: .utf8)
        #expect(throws: ClientError.self) { try record.load() }
    }
}
