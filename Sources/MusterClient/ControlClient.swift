import Foundation
public import MusterDaemon

/// The `muster` side of the control socket: one blocking connection, one JSON line per request.
///
/// Blocking is right here: the front end does one thing at a time and waits for the daemon's
/// durable acknowledgement before it tells the attendee anything.
public final class ControlClient {
    let path: String
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []
    /// How long to wait for the daemon's answer; a timeout is reported as "unknown", never as failure.
    public var timeoutSeconds: Int = 30

    public init(path: String) {
        self.path = path
    }

    deinit { disconnect() }

    private func connectIfNeeded() throws(ClientError) {
        guard fd < 0 else { return }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ClientError(.daemonUnavailable, "cannot create a socket: \(Self.errnoText())") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(socketFD)
            throw ClientError(.daemonUnavailable, "control socket path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let why = Self.errnoText()
            close(socketFD)
            throw ClientError(.daemonUnavailable, "cannot reach musterd at \(path) (\(why)); is the daemon running?")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        fd = socketFD
    }

    /// Sends one request and waits for its response.
    ///
    /// Any failure closes the connection, so a late answer can never be read as the answer to the
    /// next request, and the next call connects afresh (the daemon may have restarted). If a reused
    /// connection turns out to be dead before the request was written, the request is sent once more
    /// on a new connection; once it was written, a missing answer is reported as unknown, never retried.
    public func send(_ request: ControlRequest) throws(ClientError) -> ControlResponse {
        var data: Data
        do {
            data = try JSONEncoder().encode(request)
        } catch {
            throw ClientError(.protocolError, "cannot encode the request: \(error)")
        }
        data.append(UInt8(ascii: "\n"))
        let reused = fd >= 0
        try connectIfNeeded()
        do {
            try writeAll(Array(data))
        } catch {
            disconnect()
            guard reused else { throw error }
            try connectIfNeeded()
            do {
                try writeAll(Array(data))
            } catch {
                disconnect()
                throw error
            }
        }
        let line: [UInt8]
        do {
            line = try readLine()
        } catch {
            disconnect()
            throw error
        }
        do {
            return try JSONDecoder().decode(ControlResponse.self, from: Data(line))
        } catch {
            disconnect()
            throw ClientError(.protocolError, "musterd sent a malformed response")
        }
    }

    private func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer = []
    }

    private func writeAll(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that went away is an error here, not a SIGPIPE that kills the kiosk.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError(.daemonUnavailable, "lost the connection to musterd (\(Self.errnoText()))")
            }
            offset += written
        }
    }

    private func readLine() throws(ClientError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw ClientError(.timeout, "musterd did not answer within \(timeoutSeconds) s; the outcome is unknown")
                }
                throw ClientError(.daemonUnavailable, "lost the connection to musterd (\(Self.errnoText()))")
            }
            if count == 0 {
                throw ClientError(.daemonUnavailable, "musterd closed the connection before answering; the outcome is unknown")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
