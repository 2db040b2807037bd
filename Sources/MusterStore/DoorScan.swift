public import MusterCore
public import MusterRules

/// One scan at a door, judged by ``DoorPolicy`` from the kiosk's own replica, with the delta that
/// records it: the check-in when admitted, an audit scan when refused.
///
/// musterd's door (`muster checkin`, the screen) and the simulator's doors both judge through
/// ``ReplicaView/judgeScan(_:at:nowMillis:dayStartMillis:)``, so what the simulator proves about
/// admissions (every double a partition let through, and no other) is proved of the rule that runs.
public struct DoorScan {
    /// Where the scan happened: the kiosk, its name and its zone (its location).
    public struct Door: Sendable, Equatable {
        public var kiosk: AuthorID
        public var name: String
        public var zone: String

        public init(kiosk: AuthorID, name: String, zone: String) {
            self.kiosk = kiosk
            self.name = name
            self.zone = zone
        }
    }

    /// The attendee the scan matched, if any.
    public let record: AttendeeRecord?
    public let decision: DoorDecision
    /// The delta that records the decision.
    public let body: DeltaBody
}

extension ReplicaView {
    /// Judges a scan of `query` at `door` as the replica stands inside the caller's write
    /// transaction, so the decision and its record see the same state.
    ///
    /// `staffConfirmed`: a member of staff saw the attendee (``DoorAttempt/staffConfirmed``).
    public func judgeScan(
        _ query: String,
        at door: DoorScan.Door,
        nowMillis: UInt64,
        dayStartMillis: Int64,
        staffConfirmed: Bool = false
    ) throws -> DoorScan {
        let lock = try lock()
        let campaign = lock?.campaignID
        let record = try campaign.flatMap { try lookup(campaignID: $0, query: query) }
        var attempt = try doorAttempt(
            lock: lock,
            campaignID: campaign,
            attendee: try record.map(doorAttendee),
            at: door,
            nowMillis: nowMillis,
            dayStartMillis: dayStartMillis
        )
        attempt.replacedBy = try record.flatMap { try replacement(killing: query, of: $0) }
        attempt.staffConfirmed = staffConfirmed
        let decision = DoorPolicy.decide(attempt)
        switch decision {
        case .admit(let campaign, let status, let ends):
            let presence = PresencePayload(
                campaignID: campaign,
                attendeeKey: record?.key ?? "",
                kioskName: door.name,
                location: door.zone,
                memberStatus: status
            )
            return DoorScan(
                record: record,
                decision: decision,
                body: .checkIn(CheckInPayload(presence, ends: ends.isEmpty ? nil : ends))
            )
        case .refuse(let reason, _):
            // Who was refused is kept, except where nobody matched or no campaign is locked.
            let scan = ScanPayload(
                campaignID: campaign ?? "",
                attendeeKey: reason == .notFound || reason == .notLocked ? "" : (record?.key ?? ""),
                reason: reason,
                atMillis: Int64(clamping: nowMillis)
            )
            return DoorScan(record: record, decision: decision, body: .scan(scan))
        }
    }

    /// What ``DoorPolicy`` is asked about `attendee` at `door`: the lock, and the zone's occupancy
    /// where its rules read it.
    public func doorAttempt(
        lock: LockState?,
        campaignID: String?,
        attendee: DoorAttempt.Attendee?,
        at door: DoorScan.Door,
        nowMillis: UInt64,
        dayStartMillis: Int64
    ) throws -> DoorAttempt {
        let occupancy = try occupancy(lock: lock, campaignID: campaignID, zone: door.zone, kiosk: door.kiosk)
        return DoorAttempt(
            lock: lock,
            zone: door.zone,
            attendee: attendee,
            insideZone: occupancy.inside,
            nowMillis: nowMillis,
            dayStartMillis: dayStartMillis,
            escrow: occupancy.escrow
        )
    }
}
