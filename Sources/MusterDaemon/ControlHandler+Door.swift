import Foundation
import MusterControl
import MusterCore
import MusterRules
import MusterStore

extension ControlHandler {
    /// A door scan: decided by ``DoorPolicy`` from this kiosk's own replica (so the rules hold
    /// offline) and recorded in the same transaction as the answer: a check-in when admitted, an
    /// audit ``ScanPayload`` when refused (not-found scans aggregated, see ``NotFoundTally``).
    ///
    /// `staffConfirmed`: a member of staff saw the attendee of an attention ticket (`muster checkin
    /// --confirm`, ``confirmCheckIn(query:staff:)``).
    func checkIn(query: String, staffConfirmed: Bool = false) throws(ReplicaError) -> ControlResponse {
        let now = clock.nowMillis
        try flushNotFound(nowMillis: now)
        let door = DoorScan.Door(kiosk: author, name: config.name, zone: config.location)
        let dayStart = Self.dayStart(millis: now)
        var held: NotFoundTally.Held?
        let response = try append { view in
            let scan = try view.judgeScan(
                query,
                at: door,
                nowMillis: now,
                dayStartMillis: dayStart,
                staffConfirmed: staffConfirmed
            )
            switch scan.decision {
            case .admit:
                guard let record = scan.record else { return .answer(.failure(.internal, "admitted nobody")) }
                // Only a ticket with an order has a party: no second read of the lock for any other.
                let waiting =
                    record.details?.order == nil
                    ? 0 : try view.partyWaiting(for: record, zone: door.zone, rules: try view.lock()?.rules)
                let answer = CheckInAnswer(
                    attendee: record.summary,
                    checkIn: PresenceSummary(atMillis: now, kioskName: door.name, location: door.zone),
                    party: waiting > 0 ? waiting : nil
                )
                // No timestamp floor: "inside" follows which arrivals a check-out names, so a peer's
                // far-future stamp never drags this kiosk's own timestamps forward.
                return .append(scan.body, answer: .checkedIn(answer))
            case .refuse(let reason, let message):
                let response = Self.answer(refusing: reason, message, record: scan.record)
                guard reason == .notFound else { return .append(scan.body, answer: response) }
                let (flush, recordNow) = notFoundTally.withLock { $0.attempt(atMillis: Int64(clamping: now)) }
                held = flush
                return recordNow ? .append(scan.body, answer: response) : .answer(response)
            }
        }
        if let held { try recordNotFound(held, campaignID: "") }
        return response
    }

    /// The rest of an order (issue 35): `query` names a member (email or ticket code) or the order's
    /// code. Each member not inside yet is checked in as a scan of their own would be, so each is one
    /// check-in delta, counted against the zone's capacity and escrow and refused by every rule that
    /// refuses them alone (an attention ticket among them still needs staff).
    func checkInParty(query: String) throws(ReplicaError) -> ControlResponse {
        let members: [AttendeeRecord] = try replica.view { view in
            guard let campaign = try view.lock()?.campaignID else { return [] }
            if let record = try view.lookup(campaignID: campaign, query: query) { return try view.party(of: record) }
            return try view.party(campaignID: campaign, orderCode: query)
        }
        guard !members.isEmpty else { return .notFound(RefusalAnswer(DoorText.notFound, reason: .notFound)) }
        var admitted: [AttendeeSummary] = []
        var refused: [PartyAnswer.Refused] = []
        for member in members {
            switch try checkIn(query: member.key) {
            case .checkedIn(let answer): admitted.append(answer.attendee)
            case .alreadyCheckedIn: continue
            case .refused(let refusal), .notFound(let refusal):
                refused.append(
                    PartyAnswer.Refused(
                        attendee: refusal.attendee ?? member.summary,
                        reason: refusal.reason?.code ?? "",
                        message: refusal.message
                    )
                )
            case let other:
                return other
            }
        }
        return .partyCheckedIn(PartyAnswer(admitted: admitted, refused: refused))
    }

    /// A check-in staff confirmed: admitted, an attention ticket's check-in is followed by a note that
    /// names `staff`, so the record says who let the attendee in. Two writes: a crash between them
    /// keeps the check-in without its note, never the reverse.
    func confirmCheckIn(query: String, staff: String) throws -> ControlResponse {
        let response = try checkIn(query: query, staffConfirmed: true)
        if case .checkedIn(let answer) = response, answer.attendee.attention != nil {
            _ = try note(attendeeKey: answer.attendee.key, text: "Attention confirmed by \(staff) at \(config.name)")
        }
        return response
    }

    /// An add-on desk (issue 35): decided by ``RedemptionPolicy`` from this kiosk's own replica and
    /// recorded in the same transaction as the answer when handed out; a refusal writes nothing.
    func redeem(_ addon: String, for query: String) throws(ReplicaError) -> ControlResponse {
        let zone = config.location
        return try append { view in
            let judged = try view.judgeRedemption(addon, for: query, at: zone)
            switch judged.decision {
            case .redeem(let bought):
                guard let record = judged.record, let body = judged.body else {
                    return .answer(.failure(.internal, "handed out to nobody"))
                }
                return .append(body, answer: .redeemed(record.summary, addon: bought))
            case .refuse(let reason, let message):
                return .answer(Self.answer(refusing: reason, message, record: judged.record))
            }
        }
    }

    /// The door's refusal of a walk-in registration (and its audit record), or nil to go on.
    /// Not-admitted and already-inside registrations are answered by the registration itself.
    func walkInRefusal(
        _ view: ReplicaView,
        campaign: String,
        key: String,
        existing: AttendeeRecord?,
        now: UInt64
    ) throws -> LocalWrite<ControlResponse>? {
        let attempt = try view.doorAttempt(
            lock: try view.lock(),
            campaignID: campaign,
            attendee: try existing.map(view.doorAttendee)
                ?? DoorAttempt.Attendee(key: key, admitted: true, arrivals: [], openArrivals: []),
            at: DoorScan.Door(kiosk: author, name: config.name, zone: config.location),
            nowMillis: now,
            dayStartMillis: Self.dayStart(millis: now)
        )
        guard case .refuse(let reason, let message) = DoorPolicy.decide(attempt),
            reason != .notAdmitted, reason != .alreadyInside
        else { return nil }
        let response = Self.answer(refusing: reason, message, record: existing)
        let scan = ScanPayload(campaignID: campaign, attendeeKey: key, reason: reason, atMillis: Int64(clamping: now))
        return .append(.scan(scan), answer: response)
    }

    /// Records the not-found scans a minute that is over still holds (or every held one, with
    /// `force`, at shutdown). Called before each scan and by the daemon's audit timer.
    public func flushNotFound(nowMillis: UInt64, force: Bool = false) throws(ReplicaError) {
        guard let held = notFoundTally.withLock({ $0.due(nowMillis: Int64(clamping: nowMillis), force: force) })
        else { return }
        try recordNotFound(held, campaignID: "")
    }

    private func recordNotFound(_ held: NotFoundTally.Held, campaignID: String) throws(ReplicaError) {
        _ = try append { view in
            let campaign = try view.lock()?.campaignID ?? campaignID
            let scan = ScanPayload(
                campaignID: campaign,
                attendeeKey: "",
                reason: .notFound,
                count: held.count,
                atMillis: held.windowStart
            )
            return .append(.scan(scan), answer: .noted)
        }
    }

    /// A door's refusal as clients have always read it: not-found and already-inside keep their own
    /// outcomes, every other refusal is `refused` (the `reason` says which). Already inside shows when the
    /// attendee first arrived.
    static func answer(refusing reason: DoorReason, _ message: String, record: AttendeeRecord?) -> ControlResponse {
        switch reason {
        case .notFound:
            return .notFound(RefusalAnswer(message, reason: reason, attendee: record?.summary))
        case .alreadyInside:
            guard let record else { return .failure(.internal, "already inside, but nobody was found") }
            let checkIn = record.firstArrival.map(\.summary)
            return .alreadyCheckedIn(
                AlreadyInAnswer(attendee: record.summary, checkIn: checkIn, message: message, reason: reason)
            )
        default:
            return .refused(RefusalAnswer(message, reason: reason, attendee: record?.summary))
        }
    }

    /// The start of the local calendar day of `millis`, for per-day entry limits.
    static func dayStart(millis: UInt64) -> Int64 { ReplicaView.localDayStart(millis) }
}
