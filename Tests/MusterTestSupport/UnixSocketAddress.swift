#if canImport(Glibc)
public import Glibc
#endif

/// The `sockaddr_un` of a Unix socket, built once for every test socket (client, listener, datagram).
public enum UnixSocketAddress {
    /// Calls `body` with the address of `path` (or, with `abstract`, of the abstract name: a leading
    /// NUL byte and no terminating one) and its length.
    public static func with<T>(
        path: String,
        abstract: Bool = false,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = abstract ? [0] + Array(path.utf8) : Array(path.utf8) + [0]
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes.prefix($0.count)) }
        let length =
            abstract
            ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count) : socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The text of the current `errno`, for a failure message.
    public static var lastError: String { String(cString: strerror(errno)) }
}
