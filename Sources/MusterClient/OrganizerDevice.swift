import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules

/// `muster venue add-device`: a second machine that signs for the organizer without ever holding
/// the organizer key.
///
/// Two laptops sharing the organizer key fork its chain the moment both sign during a partition,
/// and from then on half the venue refuses each side's locks and undos. A device instead gets its
/// own key and a certificate the organizer key signs (``EnrollRole/organizerDevice``); it signs
/// import, lock, unlock, undo and revocations of kiosks on its own chain, so two devices never
/// sign the same (author, seq) and their deltas merge when the sides heal (docs/organizer.md,
/// "Organizer devices"). Only the organizer key enrolls kiosks and devices and revokes devices.
public enum OrganizerDevice {
    /// Writes `DIR/organizer.key` (the device's key, 0600), `DIR/organizer.key.certificate` (its
    /// certificate) and `DIR/venue.toml` (a copy of the organizer's venue file, 0600: a device's
    /// revocation rotates the network key in it).
    public static func add(
        name: String,
        organizerKeyPath: String,
        venuePath: String,
        directory: String,
        withPassphrase: Bool,
        nowMillis: UInt64,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> (key: String, certificate: String) {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 128, TerminalText.sanitize(trimmed) == trimmed else {
            throw ClientError(.usage, "a device name is 1 to 128 bytes of printable text")
        }
        let keyPath = (directory as NSString).appendingPathComponent("organizer.key")
        let certificatePath = OrganizerSigner.certificatePath(forKey: keyPath)
        let venueCopy = (directory as NSString).appendingPathComponent("venue.toml")
        try KeyDirectory.refuseExisting([keyPath, certificatePath, venueCopy], overwriting: "a key")
        let (organizer, venue) = try Enrollment.organizerKeyAndVenue(
            keyPath: organizerKeyPath,
            venuePath: venuePath,
            environment: environment
        )
        let passphrase = try VenueSetup.newPassphrase(
            withPassphrase,
            for: "the device key",
            environment: environment
        )
        try KeyDirectory.write(in: directory, task: "write the device's files") {
            let device = try SigningKeyPair.generate()
            let certificate = VenuePolicy.certificate(
                venue: venue.venue,
                organizer: organizer,
                payload: EnrollPayload(
                    kiosk: AuthorID(device.publicKey),
                    name: trimmed,
                    location: "",
                    role: .organizerDevice
                ),
                hlc: HLC(physicalMillis: nowMillis, logical: 0)
            )
            try KeyFile.write(device, to: keyPath, passphrase: passphrase)
            try text(of: certificate).write(toFile: certificatePath, atomically: true, encoding: .utf8)
            try venue.write(to: venueCopy)
        }
        return (keyPath, certificatePath)
    }

    /// The certificate file: its envelope and signature in hex, one per line (public, not secret).
    static func text(of certificate: SignedDelta) -> String {
        "envelope = \"\(Hex.encode(certificate.envelope))\"\nsignature = \"\(Hex.encode(certificate.signature))\"\n"
    }

    /// Reads ``text(of:)`` back; nil when it is not one.
    static func certificate(from text: String) -> SignedDelta? {
        var fields: [String: [UInt8]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[1].count >= 2, parts[1].hasPrefix("\""), parts[1].hasSuffix("\"") else {
                continue
            }
            fields[parts[0]] = Hex.decode(String(parts[1].dropFirst().dropLast()))
        }
        guard let envelope = fields["envelope"], let signature = fields["signature"],
            let certificate = try? SignedDelta(envelope: envelope, signature: signature),
            case .enroll(let payload)? = try? certificate.decode().body, payload.role == .organizerDevice
        else { return nil }
        return certificate
    }
}
