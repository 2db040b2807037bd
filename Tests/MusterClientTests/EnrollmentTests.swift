import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterDaemon
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

@Suite struct EnrollmentTests {
    @Test func base32RoundTripsAndRefusesJunk() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base32.encode(bytes)
            #expect(text.allSatisfy { $0.isUppercase || ("2"..."7").contains($0) })
            #expect(Base32.decode(text) == bytes)
            #expect(Base32.decode(text.lowercased()) == bytes)
        }
        #expect(Base32.decode("MZXW6=") == nil)
        #expect(Base32.decode("MZ XW\n6") == Array("foo".utf8))
    }

    @Test func aJoinRequestIsSignedByTheKioskKey() throws {
        let kiosk = try SigningKeyPair.generate()
        let request = JoinRequest(kiosk: kiosk.publicKey, name: "Hall A", location: "Main entrance")
        let text = request.encode(signedBy: kiosk)
        #expect(text.hasPrefix(JoinRequest.prefix))
        #expect(try JoinRequest.decode("  " + text + "\n") == request)
        // Any changed character is refused (damaged base32 or a signature that does not verify).
        for index in [JoinRequest.prefix.count + 3, text.count / 2, text.count - 2] {
            var characters = Array(text)
            characters[index] = characters[index] == "A" ? "B" : "A"
            #expect(throws: ClientError.self) { try JoinRequest.decode(String(characters)) }
        }
        #expect(throws: ClientError.self) { try JoinRequest.decode("hello") }
    }

    /// The whole enrollment on disk: a venue, a kiosk config, request → enroll → join.
    @Test func enrollAndJoinInstallTheVenueWithTheNetworkKeySealedToTheKiosk() throws {
        let directory = try TemporaryDirectory("muster-enroll")
        defer { directory.remove() }
        let (keyPath, venuePath) = try VenueSetup.create(
            directory: directory.file("organizer"),
            name: "Test venue",
            withPassphrase: false,
            environment: [:]
        )
        let organizerVenue = try VenueFile.load(path: venuePath)
        var config = KioskConfig()
        config.name = "Hall A"
        config.location = "Main entrance"
        config.stateDirectory = directory.file("state")
        config.venue = directory.file("joined.toml")
        let (request, text) = try Enrollment.request(config: config)
        #expect(try JoinRequest.decode(text) == request)
        // Asking twice keeps the same key.
        #expect(try Enrollment.request(config: config).request.kiosk == request.kiosk)

        let bundle = try Enrollment.enroll(request, organizerKeyPath: keyPath, venuePath: venuePath, nowMillis: 1_000)
        let decoded = try JoinBundle.decode(bundle.encode())
        #expect(decoded.certificate == bundle.certificate)
        // The network key is not in the bundle in clear.
        let keyBytes = organizerVenue.networkKey.withUnsafeBytes { Array($0) }
        #expect(!bundle.encode().contains(Base32.encode(keyBytes).prefix(20)))

        // Another kiosk cannot use it.
        var stranger = config
        stranger.stateDirectory = directory.file("stranger")
        stranger.venue = directory.file("stranger.toml")
        _ = try Enrollment.request(config: stranger)
        #expect(throws: ClientError.self) { try Enrollment.join(decoded, config: stranger, force: false) }
        #expect(!FileManager.default.fileExists(atPath: stranger.venue))

        let message = try Enrollment.join(decoded, config: config, force: false)
        #expect(message.contains("Hall A"))
        let joined = try VenueFile.load(path: config.venue)
        #expect(joined.venue == organizerVenue.venue)
        #expect(joined.networkKey.constantTimeEquals(organizerVenue.networkKey))
        var info = stat()
        #expect(stat(config.venue, &info) == 0 && info.st_mode & 0o077 == 0)
        #expect(try KioskIdentity.loadCertificate(config: config) == bundle.certificate)
    }

    @Test func lineInputSeesLinesThatArriveTogetherAndWaitsWithATimeout() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let input = LineInput(fd: fds[0])
        #expect(!input.waitForLine(timeoutMillis: 10))
        let text = "first\r\nsecond\nthird"
        _ = text.withCString { write(fds[1], $0, strlen($0)) }
        #expect(input.waitForLine(timeoutMillis: 1_000))
        #expect(input.readLine() == "first")
        #expect(input.waitForLine(timeoutMillis: 0))
        #expect(input.readLine() == "second")
        #expect(!input.waitForLine(timeoutMillis: 10))
        close(fds[1])
        #expect(input.waitForLine(timeoutMillis: 1_000))
        #expect(input.readLine() == "third")
        #expect(input.readLine() == nil)
    }
}
