import Foundation
import MusterControl
import MusterCrypto

/// `muster venue create`: the organizer key and the venue file.
public enum VenueSetup {
    public static func create(
        directory: String,
        name: String,
        withPassphrase: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> (key: String, venue: String) {
        let keyPath = (directory as NSString).appendingPathComponent("organizer.key")
        let venuePath = (directory as NSString).appendingPathComponent("venue.toml")
        try KeyDirectory.refuseExisting([keyPath, venuePath], overwriting: "a venue")
        let passphrase = try newPassphrase(withPassphrase, for: "the organizer key", environment: environment)
        try KeyDirectory.write(in: directory, task: "create the venue") {
            let keyPair = try SigningKeyPair.generate()
            try KeyFile.write(keyPair, to: keyPath, passphrase: passphrase)
            try VenueFile.create(name: name, organizer: keyPair.publicKey).write(to: venuePath)
        }
        return (keyPath, venuePath)
    }

    /// A new key file's passphrase: nil when none is wanted; `MUSTER_PASSPHRASE`, or typed twice.
    static func newPassphrase(
        _ wanted: Bool,
        for what: String,
        environment: [String: String]
    ) throws(ClientError) -> String? {
        guard wanted else { return nil }
        let passphrase = environment["MUSTER_PASSPHRASE"] ?? Passphrase.prompt("New passphrase for \(what): ")
        guard let chosen = passphrase, !chosen.isEmpty else {
            throw ClientError(.usage, "a passphrase is required (type it, or set MUSTER_PASSPHRASE)")
        }
        if environment["MUSTER_PASSPHRASE"] == nil, Passphrase.prompt("Repeat the passphrase: ") != chosen {
            throw ClientError(.usage, "the passphrases differ")
        }
        return chosen
    }
}
