import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw, blocking Unix-socket client for speaking broken protocol to a server under test.
///
/// `@unchecked Sendable`: one test drives it from one thread at a time (it is handed from a
/// ``TestSupport/blocking(_:)`` thread back to the test, never used by two at once).
public final class RawSocket: @unchecked Sendable {
    public let fd: Int32
    private var pending: [UInt8] = []
    private var isOpen = true

    /// Connects to `path`; reads give up after `timeoutSeconds`.
    public init(path: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        guard UnixSocketAddress.with(path: path, { [fd] in connect(fd, $0, $1) }) == 0 else {
            let reason = UnixSocketAddress.lastError
            Glibc.close(fd)
            throw TestFailure("connect failed: \(reason)")
        }
        setReceiveTimeout(timeoutSeconds)
    }

    /// Takes over a connection a test server accepted.
    public init(accepted fd: Int32, timeoutSeconds: Int = 10) {
        self.fd = fd
        setReceiveTimeout(timeoutSeconds)
    }

    deinit { close() }

    private func setReceiveTimeout(_ seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes the connection (the server sees end of file); later calls do nothing.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    /// Sends what it can; stops quietly when the peer has closed (no SIGPIPE). Returns bytes sent.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += sent
        }
        return offset
    }

    @discardableResult
    public func send(_ text: String) -> Int { send(Array(text.utf8)) }

    public enum ReadResult: Equatable, Sendable {
        case line(String)
        case closed
        case timedOut
    }

    /// The next newline-terminated line (without its newline), or why there is none.
    public func readLine() -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line)
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return .timedOut }
                return .closed  // ECONNRESET and friends
            }
            if count == 0 { return .closed }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// The next line decoded as JSON `T` (a control response).
    public func readJSON<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        guard case .line(let line) = readLine() else { throw TestFailure("no response line") }
        return try JSONDecoder().decode(T.self, from: Data(line.utf8))
    }
}
