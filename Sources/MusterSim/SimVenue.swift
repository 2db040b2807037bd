public import MusterCore
public import MusterCrypto
public import MusterRules

/// The simulated venue: an organizer and N enrolled kiosks with real Ed25519 keys, all derived from
/// the seed so that every signature, and so every byte of the run, replays.
public struct SimVenue {
    public let policy: VenuePolicy
    /// The organizer's key: a Byzantine run imports attendees and locks the campaign with it.
    public let organizerKey: SigningKeyPair
    public let kioskKeys: [SigningKeyPair]
    public let kioskIDs: [AuthorID]
    /// Each kiosk's enrollment certificate, signed by the organizer.
    public let certificates: [(SignedDelta, AuthorID)]
    /// The venue file's network key (generation 0). Its bytes matter to nobody: handshakes are not
    /// run, only which key each kiosk would use (``NetworkKeyRing``).
    public let networkKey: SecureBytes
    /// The campaign every check-in belongs to.
    public static let campaign = "sim"
    /// The venue's wall clock at virtual time zero (2026-06-15).
    public static let startMillis: UInt64 = 1_781_481_600_000

    public init(kiosks: Int, random: inout SimRandom) throws(SimError) {
        do {
            let organizer = try SigningKeyPair(seed: SecureBytes(copying: random.bytes(SigningKeyPair.seedByteCount)))
            guard let venue = VenueID(bytes: random.bytes(VenueID.byteCount)) else {
                throw SimError("cannot make a venue id")
            }
            policy = VenuePolicy(venue: venue, organizer: AuthorID(organizer.publicKey))
            organizerKey = organizer
            var keys: [SigningKeyPair] = []
            keys.reserveCapacity(kiosks)
            for _ in 0..<kiosks {
                keys.append(try SigningKeyPair(seed: SecureBytes(copying: random.bytes(SigningKeyPair.seedByteCount))))
            }
            kioskKeys = keys
            kioskIDs = keys.map { AuthorID($0.publicKey) }
            networkKey = try SecureBytes(copying: [UInt8](repeating: 0x4B, count: 32))
            certificates = zip(keys, kioskIDs).enumerated().map { index, pair in
                let certificate = VenuePolicy.certificate(
                    venue: venue,
                    organizer: organizer,
                    payload: EnrollPayload(kiosk: pair.1, name: "k\(index + 1)", location: "Hall"),
                    hlc: HLC(physicalMillis: Self.startMillis - 3_600_000, logical: 0)
                )
                return (certificate, pair.1)
            }
        } catch let error as SimError {
            throw error
        } catch {
            throw SimError("cannot make the venue's keys", cause: error)
        }
    }

    /// The body of workload check-in `index`, made at kiosk `kiosk` (one attendee per check-in).
    public static func checkInBody(index: Int, kiosk: Int) -> DeltaBody {
        .checkIn(
            CheckInPayload(
                PresencePayload(
                    campaignID: campaign,
                    attendeeKey: "a\(index)@sim.example",
                    kioskName: "k\(kiosk + 1)",
                    location: "Hall",
                    memberStatus: "Attended"
                )
            )
        )
    }
}
