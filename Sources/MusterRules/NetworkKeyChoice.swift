/// Which network key a replica keeps when two announce the same generation for the same kiosk.
///
/// Two revocations signed on either side of a partition can both rotate to generation N with
/// different keys. Every replica keeps the key of the revocation with the lowest hash, so all
/// kiosks end on the same current key whatever order the revocations arrived in; a key a peer
/// handed over in a rekey session (``handedSource``) ranks below every revocation's, so the
/// revocation's own key replaces it when it arrives.
public enum NetworkKeyChoice {
    /// The source of a key handed over in a rekey session rather than sealed in a revocation:
    /// above every hash.
    public static let handedSource = [UInt8](repeating: 0xFF, count: 32)

    /// Whether a key from `candidate` (a revocation's hash, or ``handedSource``) replaces one held
    /// from `held`.
    public static func replaces(_ candidate: [UInt8], over held: [UInt8]?) -> Bool {
        guard let held else { return true }
        return candidate.lexicographicallyPrecedes(held)
    }
}
