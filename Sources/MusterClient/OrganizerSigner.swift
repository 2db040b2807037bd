public import MusterCore
public import MusterCrypto

/// The key that signs the organizer's deltas: the organizer key itself, or an organizer device's
/// key with the certificate the organizer key signed for it (``EnrollRole/organizerDevice``).
public struct OrganizerSigner: Sendable {
    public let keyPair: SigningKeyPair
    /// Nil for the organizer key itself.
    public let certificate: SignedDelta?
    /// The key's record of its last signature (``SignedHeadRecord``): nil for a key that is not read
    /// from a file (tests), which then signs on whatever head the kiosk offers.
    public let record: SignedHeadRecord?

    public init(keyPair: SigningKeyPair, certificate: SignedDelta? = nil, record: SignedHeadRecord? = nil) {
        self.keyPair = keyPair
        self.certificate = certificate
        self.record = record
    }

    /// Where a device's certificate is kept: beside its key, `KEY.certificate` (public, not secret).
    public static func certificatePath(forKey path: String) -> String { path + ".certificate" }
}
