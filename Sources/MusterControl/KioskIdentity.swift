import Foundation
public import MusterCore
public import MusterCrypto

/// The kiosk's own key and its enrollment certificate, as files in the state directory.
///
/// The key is made once (by `muster join-request` or the first daemon start) and never leaves the
/// kiosk; the certificate arrives in the organizer's join bundle. Both `musterd` and `muster` use
/// this, so they agree on paths and formats.
public enum KioskIdentity {
    /// Loads the kiosk key, creating it (mode 0600) when there is none yet.
    public static func loadOrCreateKey(
        config: KioskConfig
    ) throws(KioskIdentityError) -> (key: SigningKeyPair, created: Bool) {
        let path = config.kioskKeyPath
        do {
            if FileManager.default.fileExists(atPath: path) {
                return (try KeyFile.read(from: path, passphrase: { nil }), false)
            }
            try FileManager.default.createDirectory(
                atPath: config.stateDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            let keyPair = try SigningKeyPair.generate()
            try KeyFile.write(keyPair, to: path, passphrase: nil)
            return (keyPair, true)
        } catch {
            throw KioskIdentityError(.kioskKey, "kiosk key \(path): \(error)", cause: error)
        }
    }

    /// Reads the enrollment certificate `muster join` stored, or nil when the kiosk has not joined.
    public static func loadCertificate(config: KioskConfig) throws(KioskIdentityError) -> SignedDelta? {
        let path = config.enrollmentPath
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let certificate = decodeCertificate(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw KioskIdentityError(
                .certificate,
                "\(path) is not a valid enrollment certificate; run muster join again"
            )
        }
        return certificate
    }

    /// The enrollment the stored certificate carries, read without checking its signature (the
    /// daemon verifies it against the venue at start); nil when the kiosk has not joined.
    public static func loadEnrollment(config: KioskConfig) throws(KioskIdentityError) -> EnrollPayload? {
        guard let certificate = try loadCertificate(config: config) else { return nil }
        guard case .enroll(let payload) = try? certificate.decode().body else {
            throw KioskIdentityError(
                .certificate,
                "\(config.enrollmentPath) is not an enrollment certificate; run muster join again"
            )
        }
        return payload
    }

    /// Refuses a config whose `location` is not the certificate's.
    ///
    /// A kiosk's zone is the location on its certificate: its peers count its check-ins there, and
    /// the door rules of the lock name it. A door that enforced its config's location instead
    /// applied no rule of its own zone (a capacity of 2 let in 6, `--entries once` let one attendee
    /// in three times; issue 32). So the daemon refuses to start, and `muster doctor` and `muster
    /// status` fail, until the two agree. An empty `location` in the config asks nothing: the
    /// certificate's is used.
    public static func checkLocation(
        config: KioskConfig,
        enrollment: EnrollPayload
    ) throws(KioskIdentityError) {
        guard !config.location.isEmpty, config.location != enrollment.location else { return }
        let configured = TerminalText.sanitize(config.location)
        let enrolled = TerminalText.sanitize(enrollment.location)
        throw KioskIdentityError(
            .location,
            "the config says location '\(configured)' but this kiosk is enrolled at '\(enrolled)', and a kiosk's zone "
                + "is its certificate's location; set location = \"\(enrolled)\" in the config, or, to move the kiosk to "
                + "'\(configured)', enroll it again there (muster join-request, muster enroll, muster join)"
        )
    }

    /// Stores the certificate (it is public: the organizer's signature over the kiosk's key and name).
    public static func storeCertificate(_ certificate: SignedDelta, config: KioskConfig) throws(KioskIdentityError) {
        let text = Hex.encode(certificate.envelope) + "." + Hex.encode(certificate.signature) + "\n"
        do {
            try text.write(toFile: config.enrollmentPath, atomically: true, encoding: .utf8)
        } catch {
            throw KioskIdentityError(
                .stateDirectory,
                "cannot write \(config.enrollmentPath): \(error.localizedDescription)",
                cause: error
            )
        }
    }

    static func decodeCertificate(_ text: String) -> SignedDelta? {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let envelope = Hex.decode(String(parts[0])),
            let signature = Hex.decode(String(parts[1]))
        else { return nil }
        return try? SignedDelta(envelope: envelope, signature: signature)
    }
}
