import Foundation

/// The one place Muster speaks to a Unix-domain socket by hand: the address (`sockaddr_un`,
/// abstract names included), the calls retried on `EINTR`, and every failure as a typed
/// ``SocketError``. The control client, `muster doctor`, the fault tool and the systemd notifier all
/// use it; the daemon's own listener goes through SwiftNIO instead.
///
/// Owns its descriptor and closes it on `deinit`; not shared between threads.
public final class UnixSocket {
    /// The open descriptor (closed on deinit).
    public let descriptor: Int32
    public let path: String

    /// A new socket of `type` (`SOCK_STREAM` or `SOCK_DGRAM`) with close-on-exec set.
    public init(type: Int32, path: String) throws(SocketError) {
        let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(call: "socket", path: path, errno: errno) }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    /// A connected stream socket to `path`.
    public static func connect(to path: String) throws(SocketError) -> UnixSocket {
        let socket = try UnixSocket(type: Int32(SOCK_STREAM.rawValue), path: path)
        let result = try Self.withAddress(path) { address, length in
            retryingEINTR { Glibc.connect(socket.descriptor, address, length) }
        }
        guard result == 0 else { throw SocketError(call: "connect", path: path, errno: errno) }
        return socket
    }

    /// Whether something accepts connections at `path` now.
    public static func answers(at path: String) -> Bool {
        (try? connect(to: path)) != nil
    }

    /// Sets the receive (and, when given, send) timeout; a read that waits longer fails with
    /// ``SocketError/isTimeout``.
    public func setTimeout(receive: Duration, send: Duration? = nil) {
        var value = Self.timeval(receive)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        if let send {
            var value = Self.timeval(send)
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Writes all of `bytes`, reporting how many went out before a failure. `MSG_NOSIGNAL`: a peer
    /// that went away is an error here, not a SIGPIPE that kills the process.
    public func sendAll(_ bytes: [UInt8]) throws(SendError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                retryingEINTR { Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
            }
            guard written >= 0 else {
                throw SendError(cause: SocketError(call: "send", path: path, errno: errno), bytesSent: offset)
            }
            offset += written
        }
    }

    /// A ``sendAll(_:)`` failure with how far it got (0: the peer saw nothing of it).
    public struct SendError: Error, Sendable {
        public let cause: SocketError
        public let bytesSent: Int
    }

    /// One datagram to `path` on this (unconnected, `SOCK_DGRAM`) socket.
    public func sendDatagram(_ bytes: [UInt8], to path: String) throws(SocketError) {
        let sent = try Self.withAddress(path) { address, length in
            retryingEINTR { sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        guard sent >= 0 else { throw SocketError(call: "sendto", path: path, errno: errno) }
    }

    /// Reads what is there (at most `into.count` bytes); 0 means the peer closed.
    public func read(into buffer: inout [UInt8]) throws(SocketError) -> Int {
        let count = buffer.withUnsafeMutableBytes { raw in
            retryingEINTR { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        guard count >= 0 else { throw SocketError(call: "read", path: path, errno: errno) }
        return count
    }

    /// Calls `body` with `path` as a `sockaddr_un` and its length. A leading `@` names an abstract
    /// socket (written with a leading NUL), as systemd's `$NOTIFY_SOCKET` may.
    static func withAddress<Result>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(SocketError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SocketError(call: "path", path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        // An abstract name is exactly its bytes; a path is NUL-terminated inside the full structure.
        let length =
            abstract
            ? socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
            : socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}

/// Repeats a system call while it fails with `EINTR` (a signal arrived before it did anything).
@inline(__always)
func retryingEINTR<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result < 0 && errno == EINTR { continue }
        return result
    }
}
