import Foundation

/// A stranger on the LAN with no key: many TCP connections from one loopback source address (every
/// 127.0.0.0/8 address works on Linux), each sending one byte now and then and never a whole frame.
/// Reconnects whatever the daemon closes, so the pressure stays on.
final class Trickler {
    struct Connection {
        var fd: Int32
        var opened: Date
        /// The last sweep that found the connection still open.
        var seenOpen: Date
        /// Seconds from opening to the last sweep that found it open, once a later sweep saw the
        /// daemon's close; nil while open.
        var closedAfter: TimeInterval?
    }

    let port: Int
    let source: String
    private(set) var connections: [Connection] = []
    /// Connections the daemon closed.
    private(set) var closedByDaemon = 0
    /// The longest any of those was seen open: from opening to the last sweep that found it still
    /// open. A lower bound on how long the daemon kept it, so a slow sweep (the test's `muster`
    /// processes run between sweeps) cannot inflate it; a daemon that kept one past its deadline
    /// is still caught by the sweeps in between.
    private(set) var longestLife: TimeInterval = 0

    init(port: Int, source: String, count: Int) {
        self.port = port
        self.source = source
        connections = (0..<count).compactMap { _ in
            Self.open(port: port, source: source).map { Connection(fd: $0, opened: Date(), seenOpen: Date()) }
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
                    connections[slot] = Connection(fd: fresh, opened: Date(), seenOpen: Date())
                }
                continue
            }
            var byte: UInt8 = index < 4 ? [0, 0, 0, 64][index] : 0x5a
            _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// Notes every connection the daemon has closed since the last sweep, and how long it was seen
    /// open. Measured to the sweep that saw the close (before 7251df6), a CI run's sweep delayed by a
    /// slow `muster` process read 7.4 s against a 5 s deadline; measuring to the last sweep that saw
    /// it open counts only what the daemon did.
    func sweep() {
        let now = Date()
        for slot in connections.indices where connections[slot].closedAfter == nil {
            guard Self.peerClosed(connections[slot].fd) else {
                connections[slot].seenOpen = now
                continue
            }
            let life = connections[slot].seenOpen.timeIntervalSince(connections[slot].opened)
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

/// How often a listening socket in this network namespace had its accept queue full
/// (`TcpExt: ListenOverflows` in /proc/net/netstat): each one is a TCP handshake the kernel dropped
/// and the dialer retries a second or more later. Nil when the kernel does not say.
func listenOverflows() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/net/netstat", encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n").filter { $0.hasPrefix("TcpExt:") }
    guard lines.count == 2 else { return nil }
    let names = lines[0].split(separator: " ")
    let values = lines[1].split(separator: " ")
    guard let column = names.firstIndex(of: "ListenOverflows"), column < values.count else { return nil }
    return Int(values[column])
}

/// Open file descriptors of a process.
func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}
