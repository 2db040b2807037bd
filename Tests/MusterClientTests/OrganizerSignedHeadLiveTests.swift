import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

/// The organizer key carried from one kiosk to another that has not caught up (issue 32, item 16):
/// signing on the second kiosk's older head would fork the organizer's chain, silently. `muster`
/// keeps the last seq and hash it signed beside the key and refuses to sign on another parent.
@Suite("The organizer key does not fork between kiosks (live daemons)")
struct OrganizerSignedHeadLiveTests {
    static let list = "email,first_name,last_name,company,ticket\nada@example.com,Ada,Lovelace,AE,MUS-0001\n"

    static func actions(_ daemon: LiveDaemon, keyPath: String) throws -> OrganizerActions {
        try OrganizerActions(try ClientContext(configPath: daemon.configPath, environment: [:]), keyPath: keyPath)
    }

    @Test("a kiosk behind the key's last signature is refused, changes nothing, and the first kiosk still signs")
    func behindKioskIsRefused() async throws {
        let hallA = try await LiveDaemon.started()
        let hallB = try LiveDaemon(name: "Hall B", location: "East door", venueOf: hallA)
        try await hallB.start()
        let keyPath = hallA.directory.file("organizer.key")
        try KeyFile.write(hallA.organizer, to: keyPath, passphrase: nil)
        let csv = hallA.directory.file("list.csv")
        try Self.list.write(toFile: csv, atomically: true, encoding: .utf8)

        let imported = try await TestSupport.blocking {
            try Self.actions(hallA, keyPath: keyPath).importFile(csv, campaign: "DevConf").imported
        }
        #expect(imported == 1)
        let signedAtA = try hallA.replica.head(of: hallA.venue.organizer)
        #expect(signedAtA.seq == 2)
        let record = keyPath + ".signed"

        // The key goes to Hall B, which has not heard from Hall A: its organizer head is 0.
        let refused = try await TestSupport.blocking {
            Result { try Self.actions(hallB, keyPath: keyPath).importFile(csv, campaign: "Other").imported }
        }
        guard case .failure(let failure) = refused, let error = failure as? ClientError else {
            Issue.record("Hall B signed on its own head (seq 0) after the key signed seq 2 at Hall A: a fork")
            return
        }
        #expect(error.message.contains("seq 2"), "\(error.message)")
        #expect(error.message.contains("seq 0"), "\(error.message)")
        #expect(error.message.contains(record), "the way out names the record: \(error.message)")
        // Nothing was signed or submitted at Hall B.
        #expect(try hallB.replica.head(of: hallB.venue.organizer).seq == 0)
        #expect(try hallB.replica.status().attendees == 0)

        // Back at Hall A, whose head is the key's last signature, the organizer signs on.
        let version = try await TestSupport.blocking {
            try Self.actions(hallA, keyPath: keyPath).lock(
                campaign: "DevConf",
                status: "Attended",
                opens: nil,
                closes: nil
            )
        }
        #expect(!version.isEmpty)
        #expect(try hallA.replica.head(of: hallA.venue.organizer).seq == 3)
        // The record is private to the organizer, as the key is.
        #expect(try FilePermissions.mode(of: record) == 0o600)
    }
}
