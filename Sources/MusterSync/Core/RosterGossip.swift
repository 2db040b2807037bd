public import MusterCore
import MusterRules

/// Roster gossip, as a kiosk decides it: which certificates a peer sent are new (to be recorded, then
/// passed on to the other sessions), and which organizer devices must be announced to every session
/// before their deltas go out (a peer that held neither would refuse the deltas as from a stranger).
/// The driver reads and writes the roster; the decisions are here.
public struct RosterGossip: Sendable {
    /// Kiosks and devices the roster holds (enrolled or revoked; a kiosk never becomes unknown again),
    /// as far as gossip has seen: every session starts with the peer's whole roster, and looking each
    /// one up again cost two queries per kiosk per session.
    public private(set) var known: Set<AuthorID> = []
    /// Organizer devices whose certificates went to every session.
    public private(set) var announced: Set<AuthorID> = []
    let me: AuthorID
    let organizer: AuthorID

    public init(me: AuthorID, organizer: AuthorID) {
        self.me = me
        self.organizer = organizer
    }

    /// Of the certificates a peer sent, the enrollments of kiosks not known yet, one per kiosk, in
    /// the order they came; what is no enrollment is ignored (the store judges each when it records it).
    public func unknown(_ certificates: [SignedDelta]) -> [(certificate: SignedDelta, kiosk: AuthorID)] {
        var seen: Set<AuthorID> = []
        var result: [(certificate: SignedDelta, kiosk: AuthorID)] = []
        for certificate in certificates {
            guard case .enroll(let payload)? = try? certificate.decode().body,
                !known.contains(payload.kiosk), seen.insert(payload.kiosk).inserted
            else { continue }
            result.append((certificate, payload.kiosk))
        }
        return result
    }

    /// The roster holds `kiosk`: it was on it already, or its certificate was just recorded.
    public mutating func know(_ kiosk: AuthorID) { known.insert(kiosk) }

    /// The authors of `deltas` whose certificates must go to every session first, in key order:
    /// neither this kiosk nor the organizer, and not announced yet. Our own check-ins need nothing.
    public func devicesToAnnounce(in deltas: [SignedDelta]) -> [AuthorID] {
        guard deltas.contains(where: { $0.author != me }) else { return [] }
        return Set(deltas.map(\.author)).filter { $0 != me && $0 != organizer && !announced.contains($0) }.sorted()
    }

    /// `device`'s certificate went to every session (and later sessions get it with the roster).
    public mutating func announce(_ device: AuthorID) {
        announced.insert(device)
        known.insert(device)
    }
}
