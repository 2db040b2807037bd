import MusterCore
import MusterTime

/// The door rules as one pure function of the replicated state and the scan, so every rule can be
/// tested without a database, and every kiosk, connected or cut off, decides the same way from
/// what its replica holds.
///
/// The checks run in a fixed order, so a scan that breaks several rules always gets the same
/// reason: not locked, outside the lock's window, not found, a replaced badge's code, not admitted, not valid
/// now (the ticket's own validity), outside the zone's window, a ticket type the zone does not admit, already
/// inside, entries used up, re-entry refused, zone full, and last a ticket that needs staff at a self-service
/// door. Capacity comes after the person's own rules because it is the only rule that depends on other
/// attendees; staff's attention comes after every rule, so a confirmed attendee still meets them all and a
/// person the door would refuse anyway is told why rather than sent to staff.
///
/// Without door rules on the lock (every lock before issue 16) a door behaves as before: one venue,
/// "already inside" anywhere, no limits.
public enum DoorPolicy {
    public static func decide(_ attempt: DoorAttempt) -> DoorDecision {
        guard let lock = attempt.lock, let campaignID = lock.campaignID else {
            return .refuse(.notLocked, message: DoorText.notLocked)
        }
        let now = Int64(clamping: attempt.nowMillis)
        if let refusal = window(opens: lock.opensAtMillis, closes: lock.closesAtMillis, now: now) {
            return refusal
        }
        guard let attendee = attempt.attendee else { return .refuse(.notFound, message: DoorText.notFound) }
        if let replacement = attempt.replacedBy { return .refuse(.replaced, message: DoorText.replaced(replacement)) }
        guard attendee.admitted else { return .refuse(.notAdmitted, message: DoorText.notAdmitted) }
        if let details = attendee.details, !details.isValid(atMillis: now) {
            let message = DoorText.notValidNow(from: details.validFromMillis, until: details.validUntilMillis, now: now)
            return .refuse(.notValidNow, message: message)
        }
        guard let rules = lock.rules else {
            guard attendee.openArrivals.isEmpty else {
                return .refuse(.alreadyInside, message: DoorText.alreadyInside)
            }
            return staffCheck(attempt, attendee)
                ?? .admit(campaignID: campaignID, memberStatus: lock.checkInStatus, ends: [])
        }
        let zone = rules.zone(named: attempt.zone) ?? ZoneRule(name: attempt.zone)
        if let refusal = window(opens: zone.opensAtMillis, closes: zone.closesAtMillis, now: now) {
            return refusal
        }
        guard zone.admits(ticketType: attendee.details?.ticketType) else {
            return .refuse(.typeNotAdmitted, message: DoorText.typeNotAdmitted)
        }
        if attendee.openArrivals.contains(where: { $0.location == zone.name }) {
            return .refuse(.alreadyInside, message: DoorText.alreadyInside)
        }
        let here = attendee.arrivals.filter { $0.location == zone.name }
        switch rules.entries {
        case .unlimited: break
        case .once:
            if !here.isEmpty { return .refuse(.entriesUsedUp, message: DoorText.entriesUsedUp(.once)) }
        case .perDay(let limit):
            let today = here.filter { Int64(clamping: $0.hlc.physicalMillis) >= attempt.dayStartMillis }
            if today.count >= Int(limit) {
                return .refuse(.entriesUsedUp, message: DoorText.entriesUsedUp(rules.entries))
            }
        }
        if !rules.reEntry, !here.isEmpty { return .refuse(.reEntryRefused, message: DoorText.reEntryRefused) }
        if let capacity = zone.capacity, attempt.insideZone >= Int(capacity) {
            return .refuse(.zoneFull, message: DoorText.zoneFull)
        }
        // Escrow: this door's own share, whatever the others did (see ``ZoneRule/escrow``); a door
        // the lock does not name has none until a newer lock names it.
        if let capacity = zone.capacity, zone.escrow, let escrow = attempt.escrow,
            escrow.ownInside >= escrow.share(of: Int(capacity))
        {
            return .refuse(.zoneFull, message: escrow.rank == nil ? DoorText.doorNotNamed : DoorText.doorShareFull)
        }
        if let refusal = staffCheck(attempt, attendee) { return refusal }
        let ends = zone.exclusive ? Self.ends(attendee.openArrivals.filter { $0.location != zone.name }) : []
        return .admit(campaignID: campaignID, memberStatus: lock.checkInStatus, ends: ends)
    }

    /// An attention ticket at a door no member of staff confirmed: the same words wherever it is
    /// read, never the attention text (which is staff's, read from the attendee).
    static func staffCheck(_ attempt: DoorAttempt, _ attendee: DoorAttempt.Attendee) -> DoorDecision? {
        guard attendee.details?.attention == true, !attempt.staffConfirmed else { return nil }
        return .refuse(.needsStaff, message: DoorText.needsStaff)
    }

    /// The refusal for a time outside [opens, closes), if it is.
    static func window(opens: Int64?, closes: Int64?, now: Int64) -> DoorDecision? {
        if let opens, now < opens { return .refuse(.outsideWindow, message: DoorText.opensAt(opens)) }
        if let closes, now >= closes { return .refuse(.outsideWindow, message: DoorText.closedAt(closes)) }
        return nil
    }

    /// The arrivals a check-out at `zone` ends: with door rules, the attendee leaves this zone
    /// only; without, the venue (every open arrival, as before issue 16).
    public static func checkOutEnds(_ open: [PresenceRecord], zone: String, rules: DoorRules?) -> [DeltaRef] {
        ends(rules == nil ? open : open.filter { $0.location == zone })
    }

    /// What a change that ends `arrivals` names: each author's newest one, which ends that author's
    /// earlier arrivals of the same attendee too (the `open_arrival` view). So a kiosk that floods
    /// check-ins of one person takes one reference, however many it sent, and cannot push an
    /// arrival out of the ``CheckOutPayload/maxEnds`` a change may name. In the order of `arrivals`;
    /// beyond the limit (more kiosks than that with an open arrival of one person), the newest.
    static func ends(_ arrivals: [PresenceRecord]) -> [DeltaRef] {
        var newest: [AuthorID: UInt64] = [:]
        for arrival in arrivals { newest[arrival.ref.author] = max(newest[arrival.ref.author] ?? 0, arrival.ref.seq) }
        let named = arrivals.map(\.ref).filter { newest[$0.author] == $0.seq }
        return Array(named.suffix(CheckOutPayload.maxEnds))
    }
}
