public import MusterCore

/// Which kiosks stand in each zone, as the organizer's roster says when a lock is signed: the
/// enrolled kiosks (not devices, not revoked) whose certificate names the zone's location.
///
/// `muster lock` signs each escrow zone's door list into the lock from here, so every door splits
/// the capacity over the same doors whatever its own roster holds (a door enrolled while another
/// was cut off gets a share only from a lock that names it), and warns of a zone no kiosk stands
/// in, whose rules would apply at no door.
public struct ZoneDoors: Sendable, Equatable {
    /// Kiosk keys by location, each list ascending.
    public let byLocation: [String: [AuthorID]]

    public init(roster: [RosterEntry]) {
        var byLocation: [String: [AuthorID]] = [:]
        for entry in roster where entry.role == .kiosk && entry.revokedWatermark == nil {
            byLocation[entry.location, default: []].append(entry.kiosk)
        }
        self.byLocation = byLocation.mapValues { $0.sorted() }
    }

    /// `rules` with every escrow zone's door list set to the kiosks standing in it now (at most
    /// ``ZoneRule/maxDoors``, the lowest keys, so a lock always encodes).
    public func signedInto(_ rules: DoorRules) -> DoorRules {
        var rules = rules
        for index in rules.zones.indices where rules.zones[index].escrow {
            rules.zones[index].doors = Array((byLocation[rules.zones[index].name] ?? []).prefix(ZoneRule.maxDoors))
        }
        return rules
    }

    /// One sentence per zone of `rules` that no kiosk stands in, naming the locations kiosks do
    /// stand in (values from certificates: the caller prints them sanitized).
    public func warnings(_ rules: DoorRules) -> [String] {
        let known = byLocation.keys.sorted().map { "'\($0)'" }
        return rules.zones.filter { byLocation[$0.name] == nil }.map { zone in
            "zone '\(zone.name)' names no kiosk: no door enforces its rules"
                + (zone.escrow ? " and no door has a share of its places" : "")
                + (known.isEmpty
                    ? "; no kiosk is enrolled yet"
                    : "; kiosks stand in \(known.joined(separator: ", ")) (a zone is a kiosk's location)")
        }
    }
}
