import Foundation
import MusterDaemon

/// One request on a fresh control-socket connection, the way a kiosk screen makes it, with the
/// outcome classified for the history: a daemon that cannot be reached before the request is sent
/// is a failure; once a byte of the request is sent, no answer means unknown.
struct KioskClient: Sendable {
    enum Reply: Sendable {
        case answer(ControlResponse)
        case notSent(String)
        case noAnswer(String)
    }

    let socketPath: String
    let timeoutMillis: Int

    func send(_ request: ControlRequest) -> Reply {
        guard var data = try? JSONEncoder().encode(request) else { return .notSent("cannot encode") }
        data.append(UInt8(ascii: "\n"))
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .notSent("socket: \(Self.errnoText())") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .notSent("path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return .notSent("connect: \(Self.errnoText())") }
        var timeout = timeval(tv_sec: timeoutMillis / 1000, tv_usec: (timeoutMillis % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = [UInt8](data)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return offset == 0 ? .notSent("send: \(Self.errnoText())") : .noAnswer("send: \(Self.errnoText())")
            }
            offset += written
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                guard let response = try? JSONDecoder().decode(ControlResponse.self, from: Data(buffer[..<newline])) else {
                    return .noAnswer("malformed response")
                }
                return .answer(response)
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return .noAnswer("timeout after \(timeoutMillis) ms") }
                return .noAnswer("read: \(Self.errnoText())")
            }
            if count == 0 { return .noAnswer("closed before answering") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
