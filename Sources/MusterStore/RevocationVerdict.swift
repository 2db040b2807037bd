public import MusterCore

/// What a kiosk does about a revocation of itself: the one place the rule "irreversible acts need
/// the strongest proof" (DESIGN.md) is written.
///
/// Wiping destroys the attendee data, the kiosk key, its certificate and the venue file. It is
/// allowed only when all three hold:
/// - the revocation is in force in this kiosk's own replica (a peer's word is a hint, never an
///   order: a superseded branch of the organizer's fork or a replayed message must not wipe);
/// - the organizer key itself signed it (a device, perhaps stolen, can stop a kiosk, never wipe it);
/// - another kiosk is known to hold every record this kiosk wrote (its own chain up to its last
///   seq), so no acknowledged check-in exists only here.
///
/// Otherwise the kiosk stops and keeps every file: stopping can be undone, wiping cannot.
public enum RevocationVerdict: Sendable, Equatable {
    /// This replica holds no revocation of the kiosk in force.
    case notInForce
    /// Stop serving and keep every file; `reason` says why the data was kept.
    case stop(reason: String)
    /// Delete the attendee data and the kiosk's key, certificate and venue file.
    case wipe(reason: String)

    /// - Parameters:
    ///   - membership: the kiosk's own standing in its own replica.
    ///   - organizer: the venue's organizer key.
    ///   - ownRecords: the last seq this kiosk wrote that its replica holds (set-aside records included).
    ///   - heldElsewhere: the highest seq of this kiosk's chain another kiosk is known to hold.
    public static func judge(
        membership: Membership,
        organizer: AuthorID,
        ownRecords: UInt64,
        heldElsewhere: UInt64
    ) -> RevocationVerdict {
        guard case .revoked(let watermark, let evidence) = membership else { return .notInForce }
        guard evidence.author == organizer else {
            return .stop(
                reason:
                    "revoked by an organizer device, which may stop a kiosk but never wipe it; the data is kept. "
                    + "If the device was lost or stolen, revoke it with the organizer key: its revocations are then "
                    + "taken back and this kiosk may start again"
            )
        }
        guard heldElsewhere >= ownRecords else {
            return .stop(
                reason:
                    "revoked by the organizer after seq \(watermark), but no other kiosk is known to hold this "
                    + "kiosk's records up to seq \(ownRecords) (it holds \(heldElsewhere)); the data is kept: "
                    + "export it (muster export) before wiping this box by hand"
            )
        }
        return .wipe(reason: "the organizer revoked it after seq \(watermark)")
    }
}
