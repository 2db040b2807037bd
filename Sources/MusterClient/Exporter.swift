import MusterAttendeeList
import MusterControl
import MusterCore
public import MusterRules
import MusterTime

/// The end-of-event exports, as RFC 4180 CSV with formula-injection-safe cells.
public enum Exporter {
    /// Salesforce Data Loader update of campaign members: `Id,Status` for every checked-in member
    /// imported with a Salesforce id; the status is the one the lock asked for at check-in time.
    public static func members(_ attendees: [AttendeeRecord]) -> String {
        let rows = attendees.compactMap { record -> [String]? in
            guard let id = record.salesforceID, let arrival = record.firstArrival else { return nil }
            return [id, arrival.memberStatus]
        }
        return document(header: ["Id", "Status"], rows: rows)
    }

    /// Placeholder for Salesforce's required Company field when a walk-in left it empty.
    public static let companyPlaceholder = "[not provided]"

    /// Walk-ins who were not on the imported list, as Salesforce leads.
    public static func leads(_ attendees: [AttendeeRecord]) -> String {
        let rows = attendees.filter { $0.walkIn && !$0.imported }.map { record in
            [
                record.firstName, record.lastName, record.email,
                record.company.isEmpty ? companyPlaceholder : record.company, "Event Walk-in", "Open - Not Contacted",
            ]
        }
        return document(header: ["FirstName", "LastName", "Email", "Company", "LeadSource", "Status"], rows: rows)
    }

    /// Every check-in, check-out and walk-in registration with time, kiosk, location and note.
    public static func log(_ entries: [PresenceLogEntry]) -> String {
        let rows = entries.map { entry -> [String] in
            let presence = entry.presence
            let event =
                switch presence.kind {
                case .checkOut: "check-out"
                case .registration: "walk-in"
                default: "check-in"
                }
            return [
                ClockText.iso8601(millis: Int64(clamping: presence.hlc.physicalMillis)), event, entry.campaignName,
                entry.attendee?.email ?? "", entry.attendee?.firstName ?? "", entry.attendee?.lastName ?? "",
                entry.attendee?.company ?? "", entry.attendee.flatMap { $0.ticket ?? $0.walkInTickets.first } ?? "",
                presence.kioskName, presence.location, presence.memberStatus, entry.note ?? "",
            ]
        }
        return document(
            header: [
                "Time", "Event", "Campaign", "Email", "First Name", "Last Name", "Company", "Ticket", "Kiosk",
                "Location", "Member Status", "Note",
            ],
            rows: rows
        )
    }

    /// Every attendee with what the list said of their ticket (issue 35) and their first check-in: for
    /// the organizer and the CRM, never the public screen. Add-ons are split by `|`, as imported.
    public static func attendees(_ attendees: [AttendeeRecord]) -> String {
        let rows = attendees.map { record -> [String] in
            let details = record.details
            let arrival = record.firstArrival
            return [
                record.email, record.firstName, record.lastName, record.company,
                record.ticket ?? record.walkInTickets.first ?? "", details?.ticketType ?? "", details?.order ?? "",
                details?.addons.joined(separator: "|") ?? "", details?.attention == true ? "yes" : "",
                details?.attentionText ?? "", details?.validFromMillis.map(ClockText.iso8601) ?? "",
                details?.validUntilMillis.map(ClockText.iso8601) ?? "", record.admitted ? "yes" : "no",
                arrival.map { ClockText.iso8601(millis: Int64(clamping: $0.hlc.physicalMillis)) } ?? "",
                arrival?.kioskName ?? "", arrival?.location ?? "",
            ]
        }
        return document(
            header: [
                "Email", "First Name", "Last Name", "Company", "Ticket", "Type", "Order", "Add-ons", "Attention",
                "Attention Text", "Valid From", "Valid Until", "Admitted", "Checked In", "Kiosk", "Location",
            ],
            rows: rows
        )
    }

    /// Every door scan (issue 16): admitted ones and refused ones with their reason, one row per
    /// record; aggregated not-found attempts are one row with their count, at their minute.
    /// `conflicts`: the admissions a door that had heard the others would have refused
    /// (``Conflicts``), by delta, marked in the last column with their kind's code.
    /// A session door's entries and leaves (issue 36) are rows too, outcome `entered` or `left`, the
    /// session named in the last column (`sessions`: names by id).
    public static func audit(
        _ entries: [AuditEntry],
        conflicts: [DeltaRef: Conflict.Kind] = [:],
        sessions: [String: String] = [:]
    ) -> String {
        let rows = entries.map { entry -> [String] in
            let outcome =
                entry.sessionID == nil
                ? (entry.reason == nil ? "admitted" : "refused")
                : (entry.leftSession ? "left" : "entered")
            return [
                ClockText.iso8601(millis: entry.atMillis), entry.kioskName, entry.zone, entry.campaignID,
                entry.attendeeKey, outcome, entry.reason?.code ?? "",
                String(entry.count), entry.undone ? "yes" : "", conflicts[entry.ref]?.rawValue ?? "",
                entry.sessionID.map { sessions[$0] ?? $0 } ?? "",
            ]
        }
        return document(
            header: [
                "Time", "Kiosk", "Zone", "Campaign", "Attendee", "Outcome", "Reason", "Count", "Undone", "Conflict",
                "Session",
            ],
            rows: rows
        )
    }

    /// Control characters and escape sequences are removed from every cell, so an export printed to a
    /// terminal is as safe as the kiosk screen; CSVWriter then quotes and neutralizes formulas.
    static func document(header: [String], rows: [[String]]) -> String {
        CSVWriter.document(
            header: header,
            rows: rows.map { $0.map { TerminalText.sanitize($0, maxCharacters: Limits.maxFieldBytes) } }
        )
    }
}
