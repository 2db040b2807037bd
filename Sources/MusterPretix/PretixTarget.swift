import Foundation

/// Where Muster meets a pretix: the API's base URL, the organizer and event, the check-in list, and
/// the team token. The token is a secret: it is read from a file only its owner may read, sent in the
/// `Authorization` header and nowhere else, and never part of a description or an error.
public struct PretixTarget: Sendable, CustomStringConvertible {
    public let url: URL
    public let organizer: String
    public let event: String
    public let list: Int
    let token: String

    public init(url: URL, organizer: String, event: String, list: Int, token: String) {
        self.url = url
        self.organizer = organizer
        self.event = event
        self.list = list
        self.token = token
    }

    /// The token from `path`: refused when the file is readable by group or others (a team token
    /// writes check-ins), empty, or not one line of printable ASCII.
    public static func token(fromFile path: String) throws(PretixError) -> String {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .tokenFile(path, "cannot be read")
        }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw .tokenFile(path, "is readable by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .tokenFile(path, "does not hold one token (printable ASCII, one line)") }
        return text
    }

    /// `/api/v1/organizers/{organizer}/events/{event}/` + `path`.
    func eventURL(_ path: String) -> URL {
        url.appendingPathComponent("api/v1/organizers/\(organizer)/events/\(event)/\(path)")
    }

    /// `/api/v1/organizers/{organizer}/` + `path`.
    func organizerURL(_ path: String) -> URL {
        url.appendingPathComponent("api/v1/organizers/\(organizer)/\(path)")
    }

    public var description: String { "\(url.absoluteString) \(organizer)/\(event), check-in list \(list)" }
}
