public import MusterCore
import MusterCrypto

/// An organizer's enrollment of a kiosk, checked: the rule a replica applies before it stores one,
/// and a kiosk applies to the certificate a peer presents at a session's start (`Admission`).
public enum EnrollmentCertificate {
    /// Verifies a certificate without storing it.
    public static func verify(
        _ certificate: SignedDelta,
        for kiosk: AuthorID,
        policy: VenuePolicy
    )
        throws(ReplicaError) -> EnrollPayload
    {
        guard certificate.venue == policy.venue else {
            throw ReplicaError(
                .wrongVenue,
                "the enrollment belongs to venue \(certificate.venue)",
                ref: certificate.ref
            )
        }
        guard certificate.author == policy.organizer, case .enroll(let payload) = try? certificate.decode().body else {
            throw ReplicaError(.notEnrolled, "not an enrollment signed by the venue's organizer", ref: certificate.ref)
        }
        guard payload.kiosk == kiosk else {
            throw ReplicaError(
                .notEnrolled,
                "the enrollment names kiosk \(payload.kiosk), not \(kiosk)",
                ref: certificate.ref
            )
        }
        guard let key = try? SigningPublicKey(bytes: certificate.author.bytes),
            key.isValidSignature(certificate.signature, for: certificate.envelope)
        else {
            throw ReplicaError(.badSignature, "the enrollment's signature does not verify", ref: certificate.ref)
        }
        return payload
    }
}
