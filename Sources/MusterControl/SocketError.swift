import Foundation

/// A failed system call on a Unix socket: which call, on which path, and the `errno` it set, so a
/// caller can tell "no daemon" (`ECONNREFUSED`, `ENOENT`) from "no answer in time" (`EAGAIN`).
public struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed (`socket`, `connect`, `send`, `read`, ...), or `path` when the
    /// address itself is unusable.
    public let call: String
    public let path: String
    /// The `errno` the call set (`ENAMETOOLONG` for a path that does not fit `sockaddr_un`).
    public let errno: Int32

    /// A receive timeout (`SO_RCVTIMEO`) ran out before any data arrived.
    public var isTimeout: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    public init(call: String, path: String, errno: Int32) {
        (self.call, self.path, self.errno) = (call, path, errno)
    }

    public var description: String { "\(call) \(path): \(String(cString: strerror(errno)))" }
}
