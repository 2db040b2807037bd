public import MusterCore

/// Finds the conflicts of one campaign.
public enum Conflicts {
    /// One write of the campaign with the attendee it concerns, as the finder needs it.
    public struct Keyed<Record: KioskWrite>: Sendable, Equatable {
        public let attendeeKey: String
        public let record: Record

        public init(attendeeKey: String, record: Record) {
            self.attendeeKey = attendeeKey
            self.record = record
        }
    }

    public typealias Presence = Keyed<PresenceRecord>
    public typealias Badge = Keyed<BadgeRecord>
    public typealias Redemption = Keyed<RedemptionRecord>

    /// Replays the campaign's live presences in (hlc, author, seq) order, as the doors' rules would
    /// have judged them with everything heard: an arrival the rules refuse is a conflict. `rules` are
    /// the lock's now (nil: no door rules, the venue is one zone and "already inside" its only rule).
    /// A check-out ends the attendee's stay in its zone (the venue, without rules); an arrival into an
    /// exclusive zone ends every other. `dayStart` gives the start of the local day of a stamp (Unix
    /// milliseconds), for `--entries N` a day: kiosks of one venue share its time zone, so they agree.
    public static func find(
        presences: [Presence],
        badges: [Badge],
        redemptions: [Redemption] = [],
        rules: DoorRules?,
        dayStart: (UInt64) -> Int64 = Conflicts.utcDayStart
    ) -> [Conflict] {
        let ordered = presences.sorted { order($0.record) < order($1.record) }
        var inside: [String: [String: PresenceRecord]] = [:]  // zone -> attendee -> the arrival inside
        var entered: [String: [String: PresenceRecord]] = [:]  // zone -> attendee -> the first arrival
        var today: [String: [String: [PresenceRecord]]] = [:]  // zone -> attendee -> arrivals on one day
        var conflicts: [Conflict] = []
        let onceOnly = rules.map { $0.entries == .once || !$0.reEntry } ?? false
        var perDay: Int?
        if case .perDay(let limit) = rules?.entries { perDay = Int(limit) }
        for presence in ordered {
            let record = presence.record
            let key = presence.attendeeKey
            let zone = rules == nil ? "" : record.location
            guard record.isArrival else {
                inside[zone]?[key] = nil
                continue
            }
            let earlierToday =
                perDay == nil ? [] : Self.sameDay(today[zone]?[key] ?? [], as: record, dayStart: dayStart)
            if onceOnly, let first = entered[zone]?[key] {
                conflicts.append(.init(.enteredTwice, key, zone, first: first, second: record))
            } else if let open = inside[zone]?[key] {
                conflicts.append(.init(.insideTwice, key, zone, first: open, second: record))
            } else if let perDay, earlierToday.count >= perDay, let first = earlierToday.first {
                conflicts.append(.init(.entriesExceeded, key, zone, first: first, second: record))
            } else if let rule = rules?.zone(named: zone), let capacity = rule.capacity, !rule.escrow,
                (inside[zone]?.count ?? 0) >= Int(capacity)
            {
                conflicts.append(
                    Conflict(
                        kind: .overCapacity,
                        attendeeKey: key,
                        zone: zone,
                        first: nil,
                        second: Conflict.Admission(record),
                        inside: (inside[zone]?.count ?? 0) + 1,
                        capacity: Int(capacity)
                    )
                )
            }
            if rules?.zone(named: zone)?.exclusive == true {
                for other in inside.keys where other != zone { inside[other]?[key] = nil }
            }
            if entered[zone]?[key] == nil { entered[zone, default: [:]][key] = record }
            if perDay != nil { today[zone, default: [:]][key] = earlierToday + [record] }
            if inside[zone]?[key] == nil { inside[zone, default: [:]][key] = record }
        }
        var firstBadge: [String: BadgeRecord] = [:]
        for badge in badges.sorted(by: { order($0.record) < order($1.record) })
        where badge.record.reason == .selfService {
            guard let first = firstBadge[badge.attendeeKey] else {
                firstBadge[badge.attendeeKey] = badge.record
                continue
            }
            conflicts.append(.init(.badgeTwice, badge.attendeeKey, "", first: first, second: badge.record))
        }
        var firstRedemption: [String: [String: RedemptionRecord]] = [:]  // attendee -> add-on -> first
        for redemption in redemptions.sorted(by: { order($0.record) < order($1.record) }) {
            let key = redemption.attendeeKey
            let addon = redemption.record.addon.lowercased()
            guard let first = firstRedemption[key]?[addon] else {
                firstRedemption[key, default: [:]][addon] = redemption.record
                continue
            }
            var conflict = Conflict(.redeemedTwice, key, "", first: first, second: redemption.record)
            conflict.addon = redemption.record.addon
            conflicts.append(conflict)
        }
        return conflicts
    }

    /// The arrivals of `arrivals` on `record`'s local day: a day's count starts again on a new day,
    /// as the door's does.
    static func sameDay(
        _ arrivals: [PresenceRecord],
        as record: PresenceRecord,
        dayStart: (UInt64) -> Int64
    ) -> [PresenceRecord] {
        let day = dayStart(record.hlc.physicalMillis)
        return arrivals.filter { dayStart($0.hlc.physicalMillis) == day }
    }

    /// The start of the UTC day of `millis`: the day where no time zone is known (the simulator).
    public static func utcDayStart(_ millis: UInt64) -> Int64 { Int64(clamping: millis / 86_400_000 * 86_400_000) }

    /// The replicas' one order of writes: (hlc, author, seq).
    static func order(_ record: some KioskWrite) -> (UInt64, AuthorID, UInt64) {
        (record.hlc.packed, record.ref.author, record.ref.seq)
    }
}

extension Conflict.Admission {
    init(_ record: some KioskWrite) {
        self.init(
            ref: record.ref,
            kioskName: record.kioskName,
            location: record.location,
            atMillis: record.hlc.physicalMillis
        )
    }
}
