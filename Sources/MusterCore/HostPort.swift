/// A `host:port` pair: the config's `listen` and `static_peers`, the addresses discovery reports and the
/// sync layer dials. One type, so an address is parsed and printed (IPv6 hosts as `[::1]:7420`) one way.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension HostPort {
    /// Parses `host:port` or `[v6-host]:port`; nil when the text is neither or the port is out of range.
    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        let host: Substring
        let portText: Substring
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]"),
                trimmed.index(after: close) < trimmed.endIndex, trimmed[trimmed.index(after: close)] == ":"
            else { return nil }
            host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            portText = trimmed[trimmed.index(close, offsetBy: 2)...]
        } else {
            guard let colon = trimmed.lastIndex(of: ":") else { return nil }
            host = trimmed[..<colon]
            portText = trimmed[trimmed.index(after: colon)...]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else { return nil }
        self.init(host: String(host), port: port)
    }
}
