import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterTestSupport

/// The venue of one differential history, derived from its seed: the organizer, one organizer device
/// and four kiosks, with their certificates.
struct DifferentialVenue {
    let policy: VenuePolicy
    let organizerKey: SigningKeyPair
    let deviceKey: SigningKeyPair
    let kioskKeys: [SigningKeyPair]
    /// Stamped an hour before the test day: a stamp before it is outside the kiosk's window.
    static let certificateMillis = TestTime.start - 3_600_000

    init(random: inout SimRandom) throws {
        func key() throws -> SigningKeyPair {
            try SigningKeyPair(seed: SecureBytes(copying: random.bytes(SigningKeyPair.seedByteCount)))
        }
        organizerKey = try key()
        deviceKey = try key()
        kioskKeys = try (0..<4).map { _ in try key() }
        let venue = VenueID(bytes: random.bytes(VenueID.byteCount))!
        policy = VenuePolicy(venue: venue, organizer: AuthorID(organizerKey.publicKey))
    }

    var organizer: AuthorID { policy.organizer }
    var device: AuthorID { AuthorID(deviceKey.publicKey) }
    var kiosks: [AuthorID] { kioskKeys.map { AuthorID($0.publicKey) } }
    var authors: [AuthorID] { [organizer, device] + kiosks }

    func key(of author: AuthorID) -> SigningKeyPair {
        if author == organizer { return organizerKey }
        if author == device { return deviceKey }
        return kioskKeys.first { AuthorID($0.publicKey) == author }!
    }

    /// The certificate enrolling `author` (the device as an organizer device).
    func certificate(for author: AuthorID) -> SignedDelta {
        let index = kiosks.firstIndex(of: author)
        return VenuePolicy.certificate(
            venue: policy.venue,
            organizer: organizerKey,
            payload: EnrollPayload(
                kiosk: author,
                name: index.map { "Kiosk \($0 + 1)" } ?? "Desk",
                location: "Hall",
                role: author == device ? .organizerDevice : .kiosk
            ),
            hlc: HLC(physicalMillis: Self.certificateMillis, logical: 0)
        )
    }
}
