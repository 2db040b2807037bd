import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterControl

private func loadError(_ path: String) -> ConfigError? {
    do {
        _ = try VenueFile.load(path: path)
        return nil
    } catch {
        return error
    }
}

private func keyHex(_ venue: VenueFile) -> String {
    venue.networkKey.withUnsafeBytes { MusterCore.Hex.encode($0) }
}

/// A new venue (for a fresh organizer key) written to `venue.toml` in `dir`: the venue, the file's
/// path and its text.
private func writtenVenue(_ name: String, in dir: TemporaryDirectory) throws -> (VenueFile, String, String) {
    let path = dir.file("venue.toml")
    let venue = try VenueFile.create(name: name, organizer: try SigningKeyPair.generate().publicKey)
    try venue.write(to: path)
    return (venue, path, try String(contentsOfFile: path, encoding: .utf8))
}

@Suite("VenueFile")
struct VenueFileTests {
    @Test func createWriteLoadRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let organizer = try SigningKeyPair.generate()
        let venue = try VenueFile.create(name: "Congress Center \"East\" \\ Hall", organizer: organizer.publicKey)
        #expect(venue.organizer == AuthorID(organizer.publicKey))
        #expect(venue.networkKey.count == 32)
        let path = dir.file("venue.toml")
        try venue.write(to: path)

        let loaded = try VenueFile.load(path: path)
        #expect(loaded.venue == venue.venue)
        #expect(loaded.organizer == venue.organizer)
        #expect(loaded.name == venue.name)
        #expect(loaded.networkKey.constantTimeEquals(venue.networkKey))
        #expect(loaded.policy == VenuePolicy(venue: venue.venue, organizer: AuthorID(organizer.publicKey)))
    }

    @Test func controlCharactersInTheNameRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let venue = try VenueFile.create(
            name: "Line1\nLine2\t\u{7F}end",
            organizer: try SigningKeyPair.generate().publicKey
        )
        let path = dir.file("venue.toml")
        try venue.write(to: path)
        #expect(try VenueFile.load(path: path).name == "Line1\nLine2\t\u{7F}end")
    }

    @Test func twoVenuesGetDifferentIdsAndKeys() throws {
        let organizer = try SigningKeyPair.generate().publicKey
        let a = try VenueFile.create(name: "A", organizer: organizer)
        let b = try VenueFile.create(name: "B", organizer: organizer)
        #expect(a.venue != b.venue)
        #expect(!a.networkKey.constantTimeEquals(b.networkKey))
    }

    @Test func writtenFileIsMode0600AndNotOverwritten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let organizer = try SigningKeyPair.generate().publicKey
        let path = dir.file("venue.toml")
        let first = try VenueFile.create(name: "First", organizer: organizer)
        try first.write(to: path)
        #expect(try FilePermissions.mode(of: path) == 0o600)

        let second = try VenueFile.create(name: "Second", organizer: organizer)
        #expect(throws: (any Error).self) { try second.write(to: path) }
        #expect(try VenueFile.load(path: path).venue == first.venue, "an existing venue file is kept")

        try second.write(to: path, overwrite: true)
        #expect(try VenueFile.load(path: path).venue == second.venue)
        #expect(try FilePermissions.mode(of: path) == 0o600)
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func readableByOthersIsRefusedWithChmodHint(mode: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("venue.toml")
        let venue = try VenueFile.create(name: "Open", organizer: try SigningKeyPair.generate().publicKey)
        try venue.write(to: path)
        try FilePermissions.set(mode, of: path)
        let error = try #require(loadError(path))
        #expect(error.file == path)
        #expect(error.message.contains("chmod 600 \(path)"))
        #expect(!error.description.contains(keyHex(venue)))
    }

    @Test func missingFileIsNamed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let error = try #require(loadError(dir.file("absent.toml")))
        #expect(error.message.contains("cannot read the venue file"))
    }

    /// Corrupt venue files produce messages that name the problem but never echo the network key,
    /// even when the damage is in or next to the key.
    @Test func corruptFilesNeverLeakTheKeyInErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (venue, path, original) = try writtenVenue("Leak check", in: dir)
        let key = keyHex(venue)
        #expect(original.contains(key), "the venue file holds the key by design")

        let corruptions: [(String, String)] = [
            ("short key", original.replacingOccurrences(of: key, with: String(key.dropLast(2)))),
            ("long key", original.replacingOccurrences(of: key, with: key + "ab")),
            ("non-hex key", original.replacingOccurrences(of: key, with: "zz" + key.dropFirst(2))),
            ("unterminated key string", original.replacingOccurrences(of: "\(key)\"", with: key)),
            ("key as a number", original.replacingOccurrences(of: "\"\(key)\"", with: "0x\(key.prefix(15))")),
            ("format damaged", original.replacingOccurrences(of: VenueFile.format, with: "muster-venue-v0")),
            ("venue id damaged", original.replacingOccurrences(of: venue.venue.hex, with: "\(key)")),
            ("organizer damaged", original.replacingOccurrences(of: venue.organizer.hex, with: "\(key)00")),
            ("trailing garbage", original + "network_key = \"\(key)\"\n"),
            ("not TOML at all", "\(key)\n"),
        ]
        for (label, text) in corruptions {
            try FileManager.default.removeItem(atPath: path)
            try KeyFile.writeSecretFile(text, to: path, overwrite: false)
            let error = try #require(loadError(path), "\(label): a corrupt venue file loaded")
            #expect(!error.description.lowercased().contains(key), "\(label): \(error.description)")
            #expect(!error.description.lowercased().contains(key.prefix(16)), "\(label): \(error.description)")
        }
    }

    @Test func specificFieldErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (venue, path, original) = try writtenVenue("Fields", in: dir)

        func error(after edit: (String) -> String) throws -> String {
            try FileManager.default.removeItem(atPath: path)
            try KeyFile.writeSecretFile(edit(original), to: path, overwrite: false)
            return try #require(loadError(path)).message
        }
        #expect(
            try error { $0.replacingOccurrences(of: VenueFile.format, with: "other") }.contains(
                "unknown venue file format"
            )
        )
        #expect(try error { $0.replacingOccurrences(of: venue.venue.hex, with: "abc") }.contains("'venue_id'"))
        #expect(try error { $0.replacingOccurrences(of: venue.organizer.hex, with: "abc") }.contains("'organizer'"))
        let key = keyHex(venue)
        #expect(
            try error { $0.replacingOccurrences(of: key, with: "00") }.contains("'network_key' must be 64 hex digits")
        )
    }
}
