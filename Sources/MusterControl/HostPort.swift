import MusterCore

/// A `host:port` pair from the config (`listen`, `static_peers`). IPv6 hosts are written `[::1]:7420`.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension HostPort {
    /// In an extension, so that the struct keeps its memberwise `init(host:port:)`.
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
