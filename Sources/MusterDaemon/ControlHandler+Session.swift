import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore

/// Session doors and check-in spots (issue 36).
extension ControlHandler {
    /// A scan at a session door: decided by ``SessionPolicy`` from this kiosk's own replica (so the
    /// rules hold offline) and recorded in the same transaction as the answer when it enters or
    /// leaves; a refusal writes nothing.
    func attend(query: String, code: String?) throws(ReplicaError) -> ControlResponse {
        let now = clock.nowMillis
        let zone = config.location
        let kiosk = author
        let name = config.name
        return try append { view in
            let judged = try view.judgeAttendance(
                query,
                code: code,
                kiosk: kiosk,
                zone: zone,
                nowMillis: Int64(clamping: now)
            )
            switch judged.decision {
            case .attend(let direction):
                guard let record = judged.record, let session = judged.session, let body = judged.body else {
                    return .answer(.failure(.internal, "attended nobody"))
                }
                let answer = AttendanceAnswer(
                    attendee: record.summary,
                    session: session.name,
                    sessionID: session.id,
                    direction: direction,
                    at: PresenceSummary(atMillis: now, kioskName: name, location: zone)
                )
                return .append(body, answer: .attended(answer))
            case .refuse(let reason, let message):
                return .answer(Self.answer(refusing: reason, message, record: judged.record))
            }
        }
    }

    /// A host opens a check-in spot here: a session of this kiosk's zone from now for `seconds`, with a
    /// six-digit code from this kiosk's hundred (``SpotCode``) that no open spot it knows has.
    func openSpot(name: String, seconds: Int) throws(ReplicaError) -> ControlResponse {
        let millis = Int64(seconds) * 1_000
        guard millis > 0, millis <= SessionPayload.maxSpotMillis else {
            return .failure(.badRequest, "a spot stays open from 1 second to 4 hours")
        }
        let title = name.trimmingWhitespace()
        guard !title.isEmpty, title.utf8.count <= SessionPayload.maxNameBytes else {
            return .failure(.badRequest, "a spot's name is 1 to \(SessionPayload.maxNameBytes) bytes")
        }
        let kiosks = try replica.roster().filter { $0.role == .kiosk }.map(\.kiosk)
        let prefix = SpotCode.prefix(of: author, among: kiosks)
        let now = Int64(clamping: clock.nowMillis)
        let zone = config.location
        let id = SessionPayload.spotPrefix(author) + Hex.encode(SecureRandom.bytes(count: 4))
        return try append { view in
            let taken = Set(try view.sessions().filter { $0.isOpen(atMillis: now) }.compactMap(\.payload.code))
            let code = SpotCode.make(prefix: prefix, taken: taken) {
                SecureRandom.bytes(count: 4).reduce(0) { $0 << 8 | UInt32($1) }
            }
            let spot = SessionPayload(
                id: id,
                name: title,
                zone: zone,
                startMillis: now,
                endMillis: now + millis,
                lateAfterMillis: UInt32(clamping: millis),
                code: code
            )
            let answer = SpotAnswer(session: title, sessionID: id, code: code, zone: zone, untilMillis: now + millis)
            return .append(.session(spot), answer: .spotOpened(answer))
        }
    }

    /// Whether this kiosk's zone follows a schedule of sessions: then a door scan is attendance.
    func isSessionDoor() throws(ReplicaError) -> Bool {
        let zone = config.location
        return try replica.view { view in try view.hasSchedule(zone: zone) }
    }

    /// What the screen's banner says of sessions: whether this zone follows a schedule, the session
    /// open now, and whether a spot is open here (its code is never told).
    func sessionContext(_ view: ReplicaView, into context: inout ScreenContext, nowMillis now: Int64) throws {
        let here = try view.sessions().filter { !$0.payload.removed && $0.zone == config.location }
        context.sessionDoor = here.contains { !$0.isSpot }
        context.spotOpen = here.contains { $0.isSpot && $0.isOpen(atMillis: now) }
        if case .session(let open) = SessionPolicy.choose(
            code: nil,
            zone: config.location,
            sessions: here,
            nowMillis: now
        ) {
            context.session = open.name
            context.sessionUntilMillis = open.payload.endMillis
        }
    }
}
