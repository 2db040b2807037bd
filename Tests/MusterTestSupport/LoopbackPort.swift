import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1 for servers a test starts in another process (musterd, cupsd).
///
/// Why not "bind to port 0, read the port, close": that port comes from the kernel's ephemeral
/// range, the same range every outgoing connection draws its local port from. Between the close
/// and the child's `bind`, a kiosk dialling a peer could take the port, and the child fails with
/// "Address already in use" (seen in CI on the partition test). Ports here are taken *below* the
/// ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`), which the kernel never hands out
/// on its own; each is checked free with a real `bind` and never handed out twice by this process.
/// Test processes running at the same time start from different offsets (the pid).
public enum LoopbackPort {
    private static let next = Locked<Int?>(nil)

    /// A port nobody listens on now and that no outgoing connection can take.
    public static func reserve() throws -> Int {
        let (low, high) = range()
        let span = high - low
        for _ in 0..<span {
            var port = 0
            next.mutate { next in
                let offset = next ?? Int(getpid()) &* 7919 % span
                port = low + offset % span
                next = (offset + 1) % span
            }
            if isFree(port) { return port }
        }
        throw TestFailure("no free loopback port between \(low) and \(high)")
    }

    /// [10000, start of the ephemeral range), or [10000, 30000) if that cannot be read.
    static func range() -> (Int, Int) {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let ephemeralLow = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 30_000
        return (10_000, max(ephemeralLow, 12_000))
    }

    /// Whether a listener could bind `port` on 127.0.0.1 now (with SO_REUSEADDR, as NIO binds).
    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
