import Foundation
public import MusterCore
import MusterTime

/// The door rules an organizer types on `muster lock`, parsed into the ``DoorRules`` the lock
/// carries. Every mistake is a usage error naming the option and what is wrong, before anything
/// is signed.
///
/// A zone is `NAME=CAPACITY[,exclusive][,escrow][,opens=TIME][,closes=TIME][,types=TYPE|TYPE…]`, or
/// `NAME[,exclusive]…` with no capacity; `NAME` is the location on the certificates of the kiosks at that
/// zone's doors, and `types` the ticket types it admits (as the list names them: Eventbrite's Ticket Type,
/// pretix's product).
public enum DoorRulesOptions {
    /// The rules, or nil when no door option was given (the lock then carries none, as before).
    public static func parse(
        zones: [String],
        entries: String?,
        noReEntry: Bool,
        now: Date = SystemTime().wallDate
    ) throws(ClientError) -> DoorRules? {
        guard !zones.isEmpty || entries != nil || noReEntry else { return nil }
        var parsed: [ZoneRule] = []
        for text in zones {
            let zone = try zone(text, now: now)
            guard !parsed.contains(where: { $0.name == zone.name }) else {
                throw ClientError(.usage, "--zone '\(TerminalText.sanitize(zone.name))' is given twice")
            }
            parsed.append(zone)
        }
        guard parsed.count <= DoorRules.maxZones else {
            throw ClientError(.usage, "at most \(DoorRules.maxZones) zones")
        }
        return DoorRules(zones: parsed, entries: try entryLimit(entries), reEntry: !noReEntry)
    }

    /// `once`, a number of entries per day, or `unlimited`.
    static func entryLimit(_ text: String?) throws(ClientError) -> EntryLimit {
        guard let text = text?.trimmingWhitespace().lowercased() else { return .unlimited }
        switch text {
        case "once": return .once
        case "unlimited": return .unlimited
        default:
            guard let count = UInt16(text), count >= 1 else {
                throw ClientError(
                    .usage,
                    "--entries '\(TerminalText.sanitize(text))': use once, unlimited or a number of entries per day"
                )
            }
            return .perDay(count)
        }
    }

    static func zone(_ text: String, now: Date) throws(ClientError) -> ZoneRule {
        var parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingWhitespace()
        }
        let head = parts.removeFirst()
        let nameAndCapacity = head.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
            String($0).trimmingWhitespace()
        }
        var zone = ZoneRule(name: nameAndCapacity[0])
        let shown = TerminalText.sanitize(text)
        guard !zone.name.isEmpty, zone.name.utf8.count <= ZoneRule.maxNameBytes else {
            throw ClientError(.usage, "--zone '\(shown)': the zone needs a name (its kiosks' location)")
        }
        if nameAndCapacity.count == 2 {
            guard let capacity = UInt32(nameAndCapacity[1]) else {
                throw ClientError(.usage, "--zone '\(shown)': the capacity must be a whole number")
            }
            zone.capacity = capacity
        }
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pair.first?.lowercased(), pair.count) {
            case ("exclusive", 1): zone.exclusive = true
            case ("escrow", 1): zone.escrow = true
            case ("opens", 2): zone.opensAtMillis = try time(pair[1], shown, now: now)
            case ("closes", 2): zone.closesAtMillis = try time(pair[1], shown, now: now)
            case ("types", 2): zone.types = try names(pair[1], "types", shown)
            case ("addons", 2): zone.addons = try names(pair[1], "addons", shown)
            default:
                throw ClientError(
                    .usage,
                    "--zone '\(shown)': unknown part '\(TerminalText.sanitize(part))' (exclusive, escrow, opens=, closes=, types=, addons=)"
                )
            }
        }
        if let opens = zone.opensAtMillis, let closes = zone.closesAtMillis, closes <= opens {
            throw ClientError(.usage, "--zone '\(shown)': closes must be after opens")
        }
        return zone
    }

    /// `VIP|Speaker` (types=) or `T-shirt|Dinner` (addons=): each name once (without case), none empty,
    /// as many as a lock carries.
    private static func names(_ text: String, _ part: String, _ shown: String) throws(ClientError) -> [String] {
        var names: [String] = []
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
        for name in parts {
            guard !name.isEmpty, name.utf8.count <= AttendeeDetails.maxTypeBytes else {
                throw ClientError(.usage, "--zone '\(shown)': \(part)= names split by |, none empty")
            }
            guard !names.contains(where: { $0.lowercased() == name.lowercased() }) else {
                throw ClientError(.usage, "--zone '\(shown)': '\(TerminalText.sanitize(name))' is named twice")
            }
            names.append(name)
        }
        guard names.count <= ZoneRule.maxTypes else {
            throw ClientError(.usage, "--zone '\(shown)': at most \(ZoneRule.maxTypes) \(part)")
        }
        return names
    }

    private static func time(_ text: String, _ shown: String, now: Date) throws(ClientError) -> Int64 {
        guard let millis = TimeParsing.millis(text, now: now) else {
            throw ClientError(.usage, "--zone '\(shown)': '\(TerminalText.sanitize(text))' is not a time")
        }
        return millis
    }
}
