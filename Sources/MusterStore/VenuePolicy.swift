public import MusterCore
public import MusterCrypto

/// What the replica needs to know about its venue to decide whether a delta is acceptable:
/// the venue id every delta must carry and the organizer's key, the only author of organizer kinds.
public struct VenuePolicy: Sendable, Equatable {
    public let venue: VenueID
    public let organizer: AuthorID

    /// Signs the certificate that enrolls `payload.kiosk` (organizer only; see ``EnrollPayload``).
    public static func certificate(
        venue: VenueID,
        organizer: SigningKeyPair,
        payload: EnrollPayload,
        hlc: HLC
    ) -> SignedDelta {
        let delta = Delta(
            venue: venue,
            author: AuthorID(organizer.publicKey),
            seq: 0,
            prev: Delta.genesisPrev,
            hlc: hlc,
            body: .enroll(payload)
        )
        let envelope = delta.envelope()
        return try! SignedDelta(envelope: envelope, signature: organizer.sign(envelope))
    }

    public init(venue: VenueID, organizer: AuthorID) {
        self.venue = venue
        self.organizer = organizer
    }

    /// Refuses a delta that belongs to another venue or whose kind its author may not write.
    public func authorize(_ delta: SignedDelta) throws(ReplicaError) {
        guard delta.venue == venue else {
            throw ReplicaError(.wrongVenue, "delta belongs to venue \(delta.venue), not \(venue)", ref: delta.ref)
        }
        if delta.kind == .enroll {
            throw ReplicaError(
                .notAuthorized,
                "an enrollment is a certificate and never part of a log",
                ref: delta.ref
            )
        }
        if delta.kind.isOrganizerOnly && delta.author != organizer {
            throw ReplicaError(
                .notAuthorized,
                "a \(delta.kind) delta must be signed by the venue's organizer key",
                ref: delta.ref
            )
        }
    }
}
