import Foundation

/// A stranger on the LAN with no key: many TCP connections from one loopback source address (every
/// 127.0.0.0/8 address works on Linux), each sending one byte now and then and never a whole frame.
/// Reconnects whatever the daemon closes, so the pressure stays on.
final class Trickler {
    struct Connection {
        var fd: Int32
        var opened: Date
        /// Seconds from opening until a sweep first saw the daemon's close; nil while open.
        var closedAfter: TimeInterval?
    }

    let port: Int
    let source: String
    private(set) var connections: [Connection] = []
    /// Connections the daemon closed.
    private(set) var closedByDaemon = 0
    /// Of those, ones closed more than `lived` seconds after they opened (the longest a trickle kept one open).
    private(set) var longestLife: TimeInterval = 0

    init(port: Int, source: String, count: Int) {
        self.port = port
        self.source = source
        connections = (0..<count).compactMap { _ in
            Self.open(port: port, source: source).map { Connection(fd: $0, opened: Date()) }
        }
    }

    deinit { for connection in connections { close(connection.fd) } }

    /// One round: every connection the daemon closed is opened again; every open one gets one more
    /// byte (the first four make a length prefix of a 64-byte frame, the rest its body).
    func round(byte index: Int) {
        sweep()
        for slot in connections.indices {
            let fd = connections[slot].fd
            if connections[slot].closedAfter != nil {
                close(fd)
                if let fresh = Self.open(port: port, source: source) {
                    connections[slot] = Connection(fd: fresh, opened: Date())
                }
                continue
            }
            var byte: UInt8 = index < 4 ? [0, 0, 0, 64][index] : 0x5a
            _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// Notes every connection the daemon has closed since the last sweep, and how long it lived.
    /// A connection's life is measured to the sweep that sees the close, so sweeps must be frequent
    /// (``watch(seconds:)``) for ``longestLife`` to mean the daemon's deadline and not this loop's pace.
    func sweep() {
        let now = Date()
        for slot in connections.indices where connections[slot].closedAfter == nil {
            guard Self.peerClosed(connections[slot].fd) else { continue }
            let life = now.timeIntervalSince(connections[slot].opened)
            connections[slot].closedAfter = life
            closedByDaemon += 1
            longestLife = max(longestLife, life)
        }
    }

    /// Sweeps every 50 ms for `seconds` (instead of sleeping through closes).
    func watch(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            sweep()
            usleep(50_000)
        } while Date() < deadline
    }

    /// Connections opened more than `age` seconds ago and still open (as far as this side knows).
    func open(olderThan age: TimeInterval) -> Int {
        connections.filter {
            $0.closedAfter == nil && Date().timeIntervalSince($0.opened) > age && !Self.peerClosed($0.fd)
        }.count
    }

    /// A non-blocking connect from `source`; nil when the socket cannot even be made.
    static func open(port: Int, source: String) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        remote.sin_port = UInt16(port).bigEndian
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        guard bound == 0 else {
            close(fd)
            return nil
        }
        _ = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        }
        return fd
    }

    /// Whether the other side closed (or reset) the connection: readable with nothing to read.
    static func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let got = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if got == 0 { return true }
        if got < 0 { return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINPROGRESS && errno != ENOTCONN }
        return false
    }
}

/// Open file descriptors of a process.
func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}
