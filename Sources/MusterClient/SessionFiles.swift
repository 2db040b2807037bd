import Foundation
import MusterAttendeeList
import MusterCore

/// The CSV files of sessions (issue 36): a schedule and session registrations, read whole and checked
/// before anything is signed, each error naming its line.
///
/// Columns are found by name, without case, so a generic file and the exports of ticketing systems
/// read alike:
/// - schedule: `session` (or `name`, `title`), `zone` (or `room`, `location`), `start` (or `starts`,
///   `begin`), `end` (or `ends`), and optionally `capacity`, `registered_only` (yes/no/true/false/1/0);
/// - registrations: `session` (or `session name`, `product`, `ticket type`) and `email` (or
///   `attendee email`, `e-mail`, `email address`).
public enum SessionFiles {
    public struct Registration: Sendable, Equatable {
        public var line: Int
        public var session: String
        public var email: String
    }

    /// The largest file read: a schedule or registrations file of a large conference is well under this.
    static let maxBytes = 16 * 1024 * 1024

    public static func schedule(_ path: String) throws(ClientError) -> [OrganizerActions.SessionRequest] {
        let table = try read(path)
        let name = try column(table, ["session", "name", "title"], path)
        let zone = try column(table, ["zone", "room", "location"], path)
        let start = try column(table, ["start", "starts", "begin"], path)
        let end = try column(table, ["end", "ends"], path)
        let capacity = optionalColumn(table, ["capacity"])
        let registeredOnly = optionalColumn(table, ["registered_only", "registered only"])
        var requests: [OrganizerActions.SessionRequest] = []
        for record in table.records {
            let field = { (index: Int) in record.fields[index].trimmingWhitespace() }
            guard let startMillis = TimeParsing.millis(field(start)) else {
                throw lineError(path, record.line, "start '\(field(start))' is not a time")
            }
            guard let endMillis = TimeParsing.millis(field(end)) else {
                throw lineError(path, record.line, "end '\(field(end))' is not a time")
            }
            var request = OrganizerActions.SessionRequest(
                name: field(name),
                zone: field(zone),
                startMillis: startMillis,
                endMillis: endMillis
            )
            if let capacity, !field(capacity).isEmpty {
                guard let value = UInt32(field(capacity)) else {
                    throw lineError(path, record.line, "capacity '\(field(capacity))' is not a number")
                }
                request.capacity = value
            }
            if let registeredOnly {
                switch field(registeredOnly).lowercased() {
                case "", "no", "false", "0": break
                case "yes", "true", "1": request.registeredOnly = true
                case let other: throw lineError(path, record.line, "registered_only '\(other)' is not yes or no")
                }
            }
            guard !request.name.isEmpty, !request.zone.isEmpty, endMillis > startMillis else {
                throw lineError(path, record.line, "a session needs a name, a zone, and an end after its start")
            }
            requests.append(request)
        }
        return requests
    }

    public static func registrations(_ path: String) throws(ClientError) -> [Registration] {
        let table = try read(path)
        let session = try column(table, ["session", "session name", "product", "ticket type"], path)
        let email = try column(table, ["email", "attendee email", "e-mail", "email address"], path)
        return try table.records.map { record throws(ClientError) in
            let address = record.fields[email].trimmingWhitespace()
            guard EmailAddress.isPlausible(address) else {
                throw lineError(path, record.line, "'\(address)' is not an email address")
            }
            let name = record.fields[session].trimmingWhitespace()
            guard !name.isEmpty else { throw lineError(path, record.line, "no session named") }
            return Registration(line: record.line, session: name, email: address)
        }
    }

    private static func read(_ path: String) throws(ClientError) -> CSVTable {
        let shown = TerminalText.sanitize(path, maxCharacters: 1_000)
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else { throw ClientError(.usage, "\(shown) is larger than 16 MiB") }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError(.usage, "cannot read \(shown)", cause: error)
        }
        do {
            return try CSVReader.parse(data)
        } catch {
            throw ClientError(.failed, "\(shown): \(error.description); nothing was changed", cause: error)
        }
    }

    private static func column(_ table: CSVTable, _ names: [String], _ path: String) throws(ClientError) -> Int {
        guard let index = optionalColumn(table, names) else {
            throw lineError(
                path,
                table.headerLine,
                "no column named \(names.map { "'\($0)'" }.joined(separator: " or "))"
            )
        }
        return index
    }

    private static func optionalColumn(_ table: CSVTable, _ names: [String]) -> Int? {
        table.header.firstIndex { names.contains($0.trimmingWhitespace().lowercased()) }
    }

    private static func lineError(_ path: String, _ line: Int, _ message: String) -> ClientError {
        let shown = TerminalText.sanitize(path, maxCharacters: 1_000)
        return ClientError(.failed, "\(shown), line \(line): \(TerminalText.sanitize(message)); nothing was changed")
    }
}
