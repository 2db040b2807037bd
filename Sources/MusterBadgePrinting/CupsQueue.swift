public import MusterBadge

/// Where a kiosk's badges go: a CUPS queue (`lpstat -p` lists them) on a CUPS server, by default
/// the kiosk's own cupsd through its socket.
public struct CupsQueue: Sendable, Hashable, CustomStringConvertible {
    /// The queue name as `lpadmin -p` made it.
    public let name: String
    /// A cupsd's Unix socket path (`/run/cups/cups.sock`) or `host[:port]`; nil asks libcups for
    /// its default (`CUPS_SERVER`, `client.conf`, else the local socket). Tests point it at a
    /// private cupsd so they never touch the host's.
    public let server: String?

    /// - Throws: ``BadgeError/Code/badLayout`` for a name CUPS would never have made: empty,
    ///   longer than 127 bytes, or holding a space, `/`, `#`, `\` or a control character.
    public init(name: String, server: String? = nil) throws(BadgeError) {
        let forbidden: Set<Character> = [" ", "/", "#", "\\", "\"", "'"]
        guard !name.isEmpty, name.utf8.count <= 127,
            !name.contains(where: { forbidden.contains($0) || $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true })
        else {
            throw BadgeError(.badLayout, "'\(name)' is not a CUPS queue name (see lpstat -p)")
        }
        self.name = name
        self.server = server.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The queue's URI on its server, as IPP requests name it.
    var uri: String { "ipp://localhost/printers/\(name)" }

    public var description: String { server.map { "\(name) on \($0)" } ?? name }
}
