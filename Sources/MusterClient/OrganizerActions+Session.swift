import Foundation
import MusterAttendeeList
import MusterControl
public import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTime

/// The organizer's sessions (issue 36): the schedule and who is registered, signed with the organizer
/// key (or a device's) and replicated like the lock.
extension OrganizerActions {
    /// What `muster session add` asks for; times in Unix milliseconds.
    public struct SessionRequest: Sendable, Equatable {
        public var name: String
        public var zone: String
        public var startMillis: Int64
        public var endMillis: Int64
        public var capacity: UInt32?
        public var registeredOnly = false
        public var opensEarlyMillis: UInt32 = 0
        public var lateAfterMillis: UInt32 = 600_000

        public init(name: String, zone: String, startMillis: Int64, endMillis: Int64) {
            self.name = name
            self.zone = zone
            self.startMillis = startMillis
            self.endMillis = endMillis
        }
    }

    /// Adds a session, or replaces the one of the same name (without case): its id stays, so attendance
    /// already recorded stays with it. The capacity is split over the kiosks standing in the zone now.
    public func addSessions(
        _ requests: [SessionRequest],
        force: Bool = false,
        warn: (String) -> Void = { _ in }
    ) throws(ClientError) -> String {
        try requireSessions(force: force, warn: warn)
        let existing = try queries.sessions().filter { !$0.payload.removed && !$0.isSpot }
        let doors: ZoneDoors
        do {
            doors = ZoneDoors(roster: try client.replica().roster())
        } catch {
            throw StaffQueries.clientError(error)
        }
        var bodies: [DeltaBody] = []
        var lines: [String] = []
        for request in requests {
            let name = request.name.trimmingWhitespace()
            let zone = request.zone.trimmingWhitespace()
            guard !name.isEmpty, name.utf8.count <= SessionPayload.maxNameBytes else {
                throw ClientError(.usage, "a session's name is 1 to \(SessionPayload.maxNameBytes) bytes")
            }
            guard !zone.isEmpty, zone.utf8.count <= ZoneRule.maxNameBytes else {
                throw ClientError(.usage, "session '\(name)' needs a zone (the location of the kiosks in its room)")
            }
            guard request.endMillis > request.startMillis else {
                throw ClientError(.usage, "session '\(name)' must end after it starts")
            }
            let id =
                existing.first(where: { $0.name.lowercased() == name.lowercased() })?.id
                ?? "s-" + Hex.encode(SecureRandom.bytes(count: 8))
            let kiosks = Array((doors.byLocation[zone] ?? []).prefix(ZoneRule.maxDoors))
            if kiosks.isEmpty {
                warn("zone '\(zone)' names no kiosk: no door checks in to '\(name)' until one stands there")
            }
            bodies.append(
                .session(
                    SessionPayload(
                        id: id,
                        name: name,
                        zone: zone,
                        startMillis: request.startMillis,
                        endMillis: request.endMillis,
                        capacity: request.capacity,
                        registeredOnly: request.registeredOnly,
                        opensEarlyMillis: request.opensEarlyMillis,
                        lateAfterMillis: request.lateAfterMillis,
                        doors: request.capacity == nil ? [] : kiosks
                    )
                )
            )
            var line = "Session '\(name)' in \(zone), \(ClockText.dateTime(millis: request.startMillis))"
            line += "–\(ClockText.time(millis: request.endMillis))"
            if let capacity = request.capacity { line += ", \(capacity) places over \(kiosks.count) door(s)" }
            if request.registeredOnly { line += ", registered only" }
            lines.append(line + ".")
        }
        try submitter.submit(bodies)
        return lines.joined(separator: "\n")
    }

    /// Takes a session off the schedule everywhere; the attendance recorded stays in the log.
    public func removeSession(named name: String) throws(ClientError) -> String {
        var session = try queries.session(named: name).payload
        guard session.code == nil else {
            throw ClientError(.refused, "'\(name)' is a spot: it closes by itself at its time limit")
        }
        session.removed = true
        try submitter.submit([.session(session)])
        return "Removed '\(session.name)' from the schedule."
    }

    /// Registers the attendees of a `session,email` file (pretix's and Eventbrite's exports name the
    /// columns otherwise; see ``SessionFiles``) for the sessions named, in the campaign (default: the
    /// locked one). All or nothing: an unknown session or a malformed line registers nobody.
    public func registerForSessions(_ path: String, campaign: String?) throws(ClientError) -> String {
        let campaignID = try queries.campaignID(campaign)
        let rows = try SessionFiles.registrations(path)
        let sessions = try queries.sessions().filter { !$0.payload.removed && !$0.isSpot }
        var keys: [String: [String]] = [:]
        for row in rows {
            guard let session = sessions.first(where: { $0.name.lowercased() == row.session.lowercased() }) else {
                throw ClientError(
                    .failed,
                    "line \(row.line): no session named '\(TerminalText.sanitize(row.session))'; nobody was registered"
                )
            }
            keys[session.id, default: []].append(EmailAddress.key(row.email))
        }
        var bodies: [DeltaBody] = []
        for (id, list) in keys.sorted(by: { $0.key < $1.key }) {
            let unique = Array(Set(list)).sorted()
            for start in stride(from: 0, to: unique.count, by: SessionRegistrationPayload.maxKeys) {
                let chunk = Array(unique[start..<min(unique.count, start + SessionRegistrationPayload.maxKeys)])
                bodies.append(
                    .sessionRegistration(
                        SessionRegistrationPayload(sessionID: id, campaignID: campaignID, attendeeKeys: chunk)
                    )
                )
            }
        }
        try submitter.submit(bodies)
        return "Registered \(keys.values.map { Set($0).count }.reduce(0, +)) attendee(s) for \(keys.count) session(s)."
    }

    /// Refused while an enrolled kiosk cannot read sessions: it would refuse this delta and every later
    /// one of the organizer's chain until it is upgraded.
    private func requireSessions(force: Bool, warn: (String) -> Void) throws(ClientError) {
        try FleetReport.require(
            readableBy: try queries.fleet().unreadable(kinds: [.session, .attendance, .sessionRegistration]),
            what: "sessions",
            otherwise: "it then refuses them, and every later change of the organizer, until it is upgraded",
            force: force,
            warn: warn
        )
    }
}
