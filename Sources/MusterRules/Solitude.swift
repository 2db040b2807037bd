public import MusterCore

/// Whether this kiosk works alone: for longer than ``boundMillis`` it has heard no other kiosk at all,
/// or none of its own zone while there are kiosks enrolled there.
///
/// A door that works alone still checks people in, and what it writes reaches the others once they
/// meet again; but staff must know, because until then a once-only rule (one entry, a zone's
/// capacity without escrow) holds only for what this door has heard. The line says since when and
/// what is unheard, never anything of an attendee, so it may stand on the public screen for staff.
///
/// Only kiosks count: organizer devices come and go, and a revoked kiosk is meant to be unheard. A
/// venue of one kiosk is not alone: there is nobody to hear.
public struct Solitude: Sendable, Equatable, Codable {
    /// How long without a word from a peer before the kiosk counts as alone. Peers in session speak
    /// at least every heartbeat interval (2 s), so 10 s is five missed heartbeats: a cut, not a pause.
    public static let boundMillis: UInt64 = 10_000

    /// When a peer (of the zone, for ``unheardZone``) was last heard, or when this daemon started if
    /// none has been heard since.
    public let sinceMillis: UInt64
    /// This kiosk's own zone, when kiosks of it are enrolled and none was heard though others were;
    /// nil when no kiosk at all was heard.
    public let unheardZone: String?

    public init(sinceMillis: UInt64, unheardZone: String?) {
        self.sinceMillis = sinceMillis
        self.unheardZone = unheardZone
    }

    /// Another kiosk as the rule sees it: its zone, and when it was last heard (nil: not since start).
    public struct Peer: Sendable, Equatable {
        public let location: String
        public let heardMillis: UInt64?

        public init(location: String, heardMillis: UInt64?) {
            self.location = location
            self.heardMillis = heardMillis
        }
    }

    /// The other kiosks of the roster that count: enrolled as kiosks and not revoked.
    public static func peers(roster: [RosterEntry], me: AuthorID, heard: [AuthorID: UInt64]) -> [Peer] {
        roster.filter { $0.kiosk != me && $0.role == .kiosk && $0.revokedWatermark == nil }.map {
            Peer(location: $0.location, heardMillis: heard[$0.kiosk])
        }
    }

    /// Whether the kiosk in `ownLocation` is alone at `nowMillis`, and since when. No kiosk heard
    /// wins over a zone unheard: it is the larger fact.
    public static func judge(
        nowMillis: UInt64,
        startedMillis: UInt64,
        ownLocation: String,
        peers: [Peer]
    ) -> Solitude? {
        guard !peers.isEmpty else { return nil }
        func unheard(_ group: [Peer]) -> UInt64? {
            let last = group.compactMap(\.heardMillis).max() ?? startedMillis
            return nowMillis > last && nowMillis - last > boundMillis ? last : nil
        }
        if let since = unheard(peers) { return Solitude(sinceMillis: since, unheardZone: nil) }
        let zone = peers.filter { $0.location == ownLocation }
        guard !ownLocation.isEmpty, !zone.isEmpty, let since = unheard(zone) else { return nil }
        return Solitude(sinceMillis: since, unheardZone: ownLocation)
    }

    /// The staff line in English (`muster status`, `doctor`, the log), with the time as `time` gives it;
    /// the zone is the certificate's and goes through the caller's sanitizer like any data.
    public func line(time: String) -> String {
        "working alone since \(time) — " + (unheardZone.map { "\($0) unheard" } ?? "no other kiosk heard")
    }
}
