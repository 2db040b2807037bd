public import MusterCore
import MusterTime

/// Whether a desk hands out an add-on (issue 35), as one pure function of what the desk's replica
/// holds: the lock, the attendee's details, the add-on's redemptions this desk has heard of, and the
/// zone the desk stands in. Every desk decides from its own replica, so the rule holds offline; what
/// a partition let through twice is reported by ``Conflicts`` (`redeemed_twice`).
///
/// In order: not locked, not found, not admitted, the ticket carries no such add-on, the add-on is
/// handed out only at another zone's desks (``ZoneRule/addons``), already handed out.
public enum RedemptionPolicy {
    public enum Decision: Sendable, Equatable {
        /// Hand it out: the add-on's name as the attendee's ticket spells it.
        case redeem(addon: String)
        case refuse(DoorReason, message: String)
    }

    public static func decide(
        lock: LockState?,
        attendee: AttendeeRecord?,
        addon: String,
        zone: String,
        redemptions: [RedemptionRecord]
    ) -> Decision {
        guard lock?.campaignID != nil else { return .refuse(.notLocked, message: DoorText.notLocked) }
        guard let attendee else { return .refuse(.notFound, message: DoorText.notFound) }
        guard attendee.admitted else { return .refuse(.notAdmitted, message: DoorText.notAdmitted) }
        guard let bought = attendee.details?.addons.first(where: { same($0, addon) }) else {
            return .refuse(.addonNotBought, message: DoorText.addonNotBought(addon))
        }
        let desks = lock?.rules?.zones.filter { $0.addons?.contains(where: { same($0, bought) }) == true } ?? []
        if !desks.isEmpty, !desks.contains(where: { $0.name == zone }) {
            return .refuse(.wrongDesk, message: DoorText.wrongDesk(bought, desks: desks.map(\.name)))
        }
        if let first = redemptions.first(where: { same($0.addon, bought) }) {
            return .refuse(.alreadyRedeemed, message: DoorText.alreadyRedeemed(bought, first))
        }
        return .redeem(addon: bought)
    }

    /// Add-ons are named as the list names them, compared without case ("t-shirt" at the desk).
    public static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
