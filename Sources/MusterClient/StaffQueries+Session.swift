import MusterCore
public import MusterRules
import MusterStore

extension StaffQueries {
    /// Every session on this kiosk's replica (removed ones too), by start.
    public func sessions() throws(ClientError) -> [SessionRecord] {
        do {
            return try client.replica().view { try $0.sessions() }.sorted {
                ($0.payload.startMillis, $0.id) < ($1.payload.startMillis, $1.id)
            }
        } catch {
            throw Self.clientError(error)
        }
    }

    /// The session named `name` (without case), not removed; the newest by start when several share it.
    public func session(named name: String) throws(ClientError) -> SessionRecord {
        let wanted = name.trimmingWhitespace().lowercased()
        guard let found = try sessions().last(where: { !$0.payload.removed && $0.name.lowercased() == wanted }) else {
            throw ClientError(.notFound, "no session named '\(name)'; see 'muster session list'")
        }
        return found
    }

    /// Attendance of every session of the campaign (default: the locked one) at `nowMillis`, computed from
    /// this replica's records by ``AttendanceLedger``; `session` limits it to one session id.
    public func attendance(
        campaign: String?,
        session: String? = nil,
        nowMillis: Int64
    ) throws(ClientError)
        -> [SessionAttendance]
    {
        let campaignID = try campaignID(campaign)
        do {
            return try client.replica().view { view in
                let sessions = try view.sessionsByID()
                // Each person's every record, whichever session they are of: entering one session ends
                // another, so one session's lines come from the person's whole walk.
                var records = try view.attendance(campaignID: campaignID)
                var registrations = try view.registrations(campaignID: campaignID)
                if let session {
                    records = records.filter { $0.value.contains { $0.sessionID == session } }
                    registrations = registrations.filter { $0.key == session }
                }
                var attendees: [String: AttendeeRecord] = [:]
                for key in Set(records.keys).union(registrations.values.flatMap { $0 }) {
                    attendees[key] = try view.attendee(campaignID: campaignID, key: key)
                }
                let lines = SessionAttendance.lines(
                    sessions: sessions,
                    records: records,
                    registrations: registrations,
                    attendees: attendees,
                    nowMillis: nowMillis
                )
                return session.map { id in lines.filter { $0.session.id == id } } ?? lines
            }
        } catch {
            throw Self.clientError(error)
        }
    }
}
