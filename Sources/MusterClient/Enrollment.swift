import Foundation
public import MusterControl
import MusterCore
import MusterCrypto
import MusterRules

/// Enrollment, on both sides: the kiosk's `join-request` and `join`, the organizer's `enroll`.
///
/// No secret crosses the network or the screen in clear: the request carries only the kiosk's
/// public key; the bundle carries the network key sealed to that key.
public enum Enrollment {
    /// `muster join-request`: makes the kiosk key if needed and returns the signed request.
    public static func request(config: KioskConfig) throws(ClientError) -> (request: JoinRequest, text: String) {
        let keyPair: SigningKeyPair
        do {
            keyPair = try KioskIdentity.loadOrCreateKey(config: config).key
        } catch {
            throw ClientError(.config, error.message, cause: error)
        }
        let request = JoinRequest(kiosk: keyPair.publicKey, name: config.name, location: config.location)
        return (request, request.encode(signedBy: keyPair))
    }

    /// The organizer's venue file: given, or `venue.toml` beside the organizer key.
    public static func organizerVenuePath(explicit: String?, keyPath: String) -> String {
        explicit ?? ((keyPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("venue.toml")
    }

    /// The organizer key and the organizer's venue file, checked to belong together (only that key
    /// signs certificates).
    static func organizerKeyAndVenue(
        keyPath: String,
        venuePath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ClientError) -> (SigningKeyPair, VenueFile) {
        let organizer = try OrganizerKey.load(path: keyPath, environment: environment)
        let venue = try VenueFile.read(path: venuePath)
        guard AuthorID(organizer.publicKey) == venue.organizer else {
            throw ClientError(.config, "\(keyPath) is not the organizer key of the venue in \(venuePath)")
        }
        return (organizer, venue)
    }

    /// `muster enroll`: signs the kiosk's certificate and seals the network key to it.
    public static func enroll(
        _ request: JoinRequest,
        organizerKeyPath: String,
        venuePath: String,
        nowMillis: UInt64
    ) throws(ClientError) -> JoinBundle {
        let (organizer, venue) = try organizerKeyAndVenue(keyPath: organizerKeyPath, venuePath: venuePath)
        let certificate = VenuePolicy.certificate(
            venue: venue.venue,
            organizer: organizer,
            payload: EnrollPayload(kiosk: AuthorID(request.kiosk), name: request.name, location: request.location),
            hlc: HLC(physicalMillis: nowMillis, logical: 0)
        )
        let sealed: [UInt8]
        do {
            sealed = try SealedBox.seal(venue.networkKey, to: request.kiosk)
        } catch {
            throw ClientError(.failed, error.message, cause: error)
        }
        return JoinBundle(
            venueName: venue.name,
            venue: venue.venue,
            organizer: venue.organizer,
            keyGeneration: venue.keyGeneration,
            sealedNetworkKey: sealed,
            certificate: certificate
        )
    }

    /// `muster join`: checks the bundle was made for this kiosk, opens the network key, and writes
    /// the venue file (0600) and the certificate.
    public static func join(_ bundle: JoinBundle, config: KioskConfig, force: Bool) throws(ClientError) -> String {
        guard FileManager.default.fileExists(atPath: config.kioskKeyPath) else {
            throw ClientError(.usage, "this kiosk has no key yet; run muster join-request first")
        }
        let keyPair: SigningKeyPair
        do {
            keyPair = try KioskIdentity.loadOrCreateKey(config: config).key
        } catch {
            throw ClientError(.config, error.message, cause: error)
        }
        let policy = VenuePolicy(venue: bundle.venue, organizer: bundle.organizer)
        let payload: EnrollPayload
        do {
            payload = try EnrollmentCertificate.verify(
                bundle.certificate,
                for: AuthorID(keyPair.publicKey),
                policy: policy
            )
        } catch {
            throw ClientError(
                .usage,
                "this bundle was not made for this kiosk (\(keyPair.publicKey.fingerprint)) or is damaged: \(error.message)",
                cause: error
            )
        }
        if FileManager.default.fileExists(atPath: config.venue), !force {
            if let existing = try? VenueFile.load(path: config.venue), existing.venue != bundle.venue {
                throw ClientError(
                    .usage,
                    "\(config.venue) belongs to another venue ('\(existing.name)'); use --force to replace it"
                )
            }
        }
        do {
            let networkKey = try SealedBox.open(bundle.sealedNetworkKey, with: keyPair)
            try VenueFile(
                name: bundle.venueName,
                venue: bundle.venue,
                organizer: bundle.organizer,
                networkKey: networkKey,
                keyGeneration: bundle.keyGeneration
            ).write(to: config.venue, overwrite: true)
            try KioskIdentity.storeCertificate(bundle.certificate, config: config)
        } catch let error as MusterCryptoError {
            throw ClientError(.failed, error.message, cause: error)
        } catch {
            throw ClientError(.failed, describing: error)
        }
        return "Joined venue '\(TerminalText.sanitize(bundle.venueName))' as '\(TerminalText.sanitize(payload.name))' "
            + "(\(TerminalText.sanitize(payload.location))), kiosk key \(keyPair.publicKey.fingerprint). Start musterd now."
    }

    /// Reads a request or bundle given as the text itself, or as the path of a file holding it.
    public static func readArgument(_ argument: String) throws(ClientError) -> String {
        if argument.uppercased().hasPrefix("MUSTER-") { return argument }
        do {
            return try String(contentsOfFile: argument, encoding: .utf8)
        } catch {
            throw ClientError(.usage, "\(argument) is neither a request/bundle text nor a readable file")
        }
    }
}
