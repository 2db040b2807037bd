public import MusterCore

/// What a kiosk does about a revocation of itself: the one place the rule "irreversible acts need
/// the strongest proof" (DESIGN.md) is written.
///
/// Wiping destroys the attendee data, the kiosk key, its certificate and the venue file. It is
/// allowed only when all three hold:
/// - the revocation is in force in this kiosk's own replica (a peer's word is a hint, never an
///   order: a superseded branch of the organizer's fork or a replayed message must not wipe);
/// - the organizer key itself signed it (a device, perhaps stolen, can stop a kiosk, never wipe it);
/// - every check-in this replica holds is known to be held by another kiosk too: its own chain
///   up to its last seq, and every other kiosk's chain as far as it holds it (a kiosk revoked
///   after another may be the last to hold that one's check-ins), so no acknowledged check-in
///   exists only here.
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
    ///   - heldOnlyHere: the kiosks' chains this replica holds further than any other kiosk is
    ///     known to hold them (``Replica/recordsHeldOnlyHere(me:peersHold:)``).
    public static func judge(
        membership: Membership,
        organizer: AuthorID,
        heldOnlyHere: [HeldOnlyHere]
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
        if let first = heldOnlyHere.first {
            return .stop(
                reason:
                    "revoked by the organizer after seq \(watermark), but no other kiosk is known to hold "
                    + "\(heldOnlyHere.count) kiosk chain(s) as far as this one does (kiosk \(first.author): seq "
                    + "\(first.through) here, \(first.knownElsewhere) known elsewhere); the data is kept: export it "
                    + "(muster export) before wiping this box by hand"
            )
        }
        return .wipe(reason: "the organizer revoked it after seq \(watermark)")
    }
}

/// A kiosk's chain this replica holds further than any other kiosk is known to (see
/// ``RevocationVerdict``).
public struct HeldOnlyHere: Sendable, Equatable {
    public let author: AuthorID
    /// The last seq held here (set-aside records included).
    public let through: UInt64
    /// The highest seq another kiosk is known to hold.
    public let knownElsewhere: UInt64

    public init(author: AuthorID, through: UInt64, knownElsewhere: UInt64) {
        self.author = author
        self.through = through
        self.knownElsewhere = knownElsewhere
    }
}
