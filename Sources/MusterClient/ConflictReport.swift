import MusterCore
public import MusterRules
import MusterTime

/// `muster report conflicts`: what partitions let through twice in a campaign, with the doors, the
/// times and the people (staff only: it names attendees).
public struct ConflictReport: Encodable {
    /// One admission: the door and when.
    public struct Admission: Encodable {
        public let kiosk: String
        public let location: String
        public let at: String

        init(_ admission: Conflict.Admission) {
            kiosk = admission.kioskName
            location = admission.location
            at = ClockText.iso8601(millis: Int64(clamping: admission.atMillis))
        }
    }

    public struct Entry: Encodable {
        public let kind: Conflict.Kind
        public let attendee: String
        public let name: String
        public let zone: String
        public let first: Admission?
        public let second: Admission
        public let inside: Int?
        public let capacity: Int?
        /// For `redeemed_twice`: the add-on.
        public let addon: String?
    }

    public let campaign: String
    public let conflicts: [Entry]

    /// The conflicts of `campaign` (default: the locked one), oldest first.
    public static func make(_ queries: StaffQueries, campaign: String?) throws(ClientError) -> ConflictReport {
        let (name, found) = try queries.conflicts(campaign: campaign)
        return ConflictReport(
            campaign: name,
            conflicts: found.map { conflict, attendee in
                Entry(
                    kind: conflict.kind,
                    attendee: conflict.attendeeKey,
                    name: attendee.map { "\($0.firstName) \($0.lastName)" } ?? "",
                    zone: conflict.zone,
                    first: conflict.first.map(Admission.init),
                    second: Admission(conflict.second),
                    inside: conflict.inside,
                    capacity: conflict.capacity,
                    addon: conflict.addon
                )
            }
        )
    }

    /// What each kind says, in words.
    static func words(_ kind: Conflict.Kind) -> String {
        switch kind {
        case .enteredTwice: "entered twice (one entry only)"
        case .insideTwice: "checked in twice while inside"
        case .entriesExceeded: "entered more often than the day's entries allow"
        case .overCapacity: "admitted over the zone's capacity"
        case .badgeTwice: "a second self-service badge"
        case .redeemedTwice: "an add-on handed out twice"
        }
    }

    /// Two lines a conflict: what and who, then where and when.
    public func lines() -> [String] {
        var lines = ["Conflicts in \(campaign): \(conflicts.count)"]
        for entry in conflicts {
            let zone = [entry.addon, entry.zone.isEmpty ? nil : entry.zone].compactMap { $0 }.map { " · \($0)" }
                .joined()
            lines.append("  \(Self.words(entry.kind))\(zone) · \(entry.name) <\(entry.attendee)>")
            let again = "\(entry.second.kiosk) (\(entry.second.location)) at \(entry.second.at)"
            if let first = entry.first {
                lines.append("    first at \(first.kiosk) (\(first.location)) at \(first.at); again at \(again)")
            } else {
                lines.append("    at \(again): \(entry.inside ?? 0) inside of \(entry.capacity ?? 0)")
            }
        }
        return lines
    }
}
