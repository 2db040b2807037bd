public import MusterCore

/// Whether a session door admits a scan (issue 36), as pure functions of what the kiosk's replica
/// holds, so the rules hold offline and every kiosk decides alike.
///
/// First the session: with a spot's code, the open spot that has it (`wrong_code` when none has it,
/// `wrong_zone` when it is open in another zone, `spot_closed` when it is not open now); without one,
/// the scheduled session of the kiosk's zone open now (`no_session_now` between sessions). Then the
/// person, in order: not locked, not found, not admitted, the ticket not valid now; already in this
/// session (the scan is a leave); not registered for a registered-only session; the door's share of
/// the capacity used up.
public enum SessionPolicy {
    public enum Choice: Sendable, Equatable {
        case session(SessionRecord)
        case refuse(DoorReason, message: String)
    }

    public enum Decision: Sendable, Equatable {
        case attend(AttendancePayload.Direction)
        case refuse(DoorReason, message: String)
    }

    /// The session a scan at a kiosk of `zone` is for.
    public static func choose(
        code: String?,
        zone: String,
        sessions: [SessionRecord],
        nowMillis now: Int64
    ) -> Choice {
        let live = sessions.filter { !$0.payload.removed }
        guard let code else {
            let open = live.filter { $0.zone == zone && !$0.isSpot && $0.isOpen(atMillis: now) }
            // Overlapping sessions: the one that started last is the one in the room now.
            guard let session = open.max(by: { ($0.payload.startMillis, $1.id) < ($1.payload.startMillis, $0.id) })
            else { return .refuse(.noSessionNow, message: SessionText.noSessionNow) }
            return .session(session)
        }
        let spots = live.filter { $0.payload.code == code }
        if let spot = spots.first(where: { $0.zone == zone && $0.isOpen(atMillis: now) }) { return .session(spot) }
        if spots.contains(where: { $0.isOpen(atMillis: now) }) {
            return .refuse(.wrongZone, message: SessionText.wrongZone)
        }
        if !spots.isEmpty {
            return .refuse(.spotClosed, message: SessionText.spotClosed)
        }
        return .refuse(.wrongCode, message: SessionText.wrongCode)
    }

    /// What one scan of `attendee` at `session` does.
    ///
    /// - Parameters:
    ///   - inside: the person is in this session now (``AttendanceLedger/current(of:sessions:nowMillis:)``).
    ///   - registered: the person is registered for it.
    ///   - ownSeats: attendees this kiosk let into the session (any entry it wrote): its share is used up
    ///     at ``DoorAttempt/Escrow/share(of:)`` of the capacity, split over the session's doors, so the
    ///     room is never over capacity, even while its doors cannot hear each other.
    ///   - holdsSeat: this kiosk let the person in before (they left and come back): their seat is theirs.
    ///   - door: this kiosk.
    public static func decide(
        lock: LockState?,
        attendee: AttendeeRecord?,
        session: SessionRecord,
        inside: Bool,
        registered: Bool,
        ownSeats: Int,
        holdsSeat: Bool = false,
        door: AuthorID,
        nowMillis now: Int64
    ) -> Decision {
        guard lock?.campaignID != nil else { return .refuse(.notLocked, message: DoorText.notLocked) }
        guard let attendee else { return .refuse(.notFound, message: DoorText.notFound) }
        guard attendee.admitted else { return .refuse(.notAdmitted, message: DoorText.notAdmitted) }
        if let details = attendee.details, !details.isValid(atMillis: now) {
            let message = DoorText.notValidNow(from: details.validFromMillis, until: details.validUntilMillis, now: now)
            return .refuse(.notValidNow, message: message)
        }
        if inside { return .attend(.left) }
        if session.payload.registeredOnly, !registered {
            return .refuse(.notRegistered, message: SessionText.notRegistered)
        }
        if let capacity = session.payload.capacity, !holdsSeat {
            let doors = session.payload.doors
            let escrow = DoorAttempt.Escrow(ownInside: ownSeats, kiosks: doors.count, rank: doors.firstIndex(of: door))
            if ownSeats >= escrow.share(of: Int(capacity)) {
                return .refuse(.sessionFull, message: SessionText.sessionFull)
            }
        }
        return .attend(.entered)
    }
}
