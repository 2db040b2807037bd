import Foundation
import MusterControl
import MusterDaemon
import MusterStore
import Testing

@testable import MusterClient

/// A scripted stand-in for musterd: a listening Unix socket served by a plain thread.
private final class FakeDaemon: @unchecked Sendable {
    let path: String
    let listener: Int32

    init(path: String) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0, listen(listener, 8) == 0 else {
            close(listener)
            throw TestFailure("bind/listen failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))  // wakes a thread still blocked in accept()
        close(listener)
    }

    /// Accepts one connection and runs `script` on it in a new thread.
    func serveOne(_ script: @escaping @Sendable (Connection) -> Void) {
        serve([script])
    }

    /// Accepts connections in order on one thread; the n-th runs `scripts[n]` (the last one
    /// repeats), each on its own thread.
    func serve(_ scripts: [@Sendable (Connection) -> Void]) {
        Thread.detachNewThread { [listener] in
            var index = 0
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let script = scripts[min(index, scripts.count - 1)]
                index += 1
                Thread.detachNewThread {
                    script(Connection(fd: fd))
                    close(fd)
                }
            }
        }
    }

    final class Connection: @unchecked Sendable {
        let fd: Int32
        private var pending: [UInt8] = []

        init(fd: Int32) {
            self.fd = fd
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        func readLine() -> String? {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return line
                }
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                pending.append(contentsOf: chunk[..<count])
            }
        }

        func reply(_ response: ControlResponse) {
            var data = try! JSONEncoder().encode(response)
            data.append(UInt8(ascii: "\n"))
            _ = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func replyRaw(_ text: String) {
            _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }
}

private func pong(_ name: String) -> ControlResponse {
    var response = ControlResponse(outcome: .pong)
    response.kioskName = name
    return response
}

@Suite("ControlClient")
struct ControlClientTests {
    @Test func sendsOneJSONLineAndReadsOneBack() async throws {
        let dir = try TemporaryDirectory("muster-cc")
        defer { dir.remove() }
        let fake = try FakeDaemon(path: dir.file("c.sock"))
        let seen = Locked<[String]>([])
        fake.serveOne { connection in
            while let line = connection.readLine() {
                seen.set(seen.get() + [line])
                // Answer in two pieces to make the client reassemble the line.
                connection.replyRaw("{\"outcome\":\"po")
                connection.replyRaw("ng\",\"kioskName\":\"Fake\"}\n")
            }
        }
        let path = fake.path
        let responses = try await ClientTestSupport.blocking {
            let client = ControlClient(path: path)
            var request = ControlRequest(op: .checkIn)
            request.query = "ada@example.com"
            return [try client.send(request), try client.send(ControlRequest(op: .ping))]
        }
        #expect(responses == [pong("Fake"), pong("Fake")])
        let lines = seen.get()
        #expect(lines.count == 2)
        let first = try JSONDecoder().decode(ControlRequest.self, from: Data(lines[0].utf8))
        #expect(first.op == .checkIn)
        #expect(first.query == "ada@example.com")
    }

    @Test func malformedResponseIsAProtocolError() async throws {
        let dir = try TemporaryDirectory("muster-cc")
        defer { dir.remove() }
        let fake = try FakeDaemon(path: dir.file("c.sock"))
        fake.serveOne { connection in
            _ = connection.readLine()
            connection.replyRaw("<html>\n")
        }
        let path = fake.path
        let code = try await ClientTestSupport.blocking { () -> ClientError.Code? in
            do {
                _ = try ControlClient(path: path).send(ControlRequest(op: .ping))
                return nil
            } catch let error as ControlClientError {
                return ClientError(error).code
            }
        }
        #expect(code == .protocolError)
    }

    @Test func connectionClosedBeforeAnswerIsUnknownOutcome() async throws {
        let dir = try TemporaryDirectory("muster-cc")
        defer { dir.remove() }
        let fake = try FakeDaemon(path: dir.file("c.sock"))
        fake.serveOne { connection in _ = connection.readLine() }
        let path = fake.path
        let error = try await ClientTestSupport.blocking { () -> ClientError? in
            do {
                _ = try ControlClient(path: path).send(ControlRequest(op: .ping))
                return nil
            } catch let error as ControlClientError {
                return ClientError(error)
            }
        }
        #expect(error?.code == .daemonUnavailable)
        #expect(error?.message.contains("outcome is unknown") == true)
        #expect(error?.exitCode == 5)
    }

    @Test func timeoutIsReportedAsUnknown() async throws {
        let dir = try TemporaryDirectory("muster-cc")
        defer { dir.remove() }
        let fake = try FakeDaemon(path: dir.file("c.sock"))
        fake.serveOne { connection in
            _ = connection.readLine()
            _ = connection.readLine()  // returns when the client goes away
        }
        let path = fake.path
        let error = try await ClientTestSupport.blocking { () -> ClientError? in
            let client = ControlClient(path: path)
            client.timeout = .seconds(1)
            do {
                _ = try client.send(ControlRequest(op: .ping))
                return nil
            } catch let error as ControlClientError {
                return ClientError(error)
            }
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("outcome is unknown") == true)
    }

    /// After a timeout the daemon may still answer the old request. The client must not hand that
    /// late answer to the next request (the kiosk would show another person's result).
    @Test func lateAnswerIsNotTakenForTheNextRequest() async throws {
        let dir = try TemporaryDirectory("muster-cc")
        defer { dir.remove() }
        let fake = try FakeDaemon(path: dir.file("c.sock"))
        let script: @Sendable (FakeDaemon.Connection) -> Void = { connection in
            guard connection.readLine() != nil else { return }
            // Hold the first answer until the client, having timed out, sends its next request.
            guard connection.readLine() != nil else { return }
            connection.reply(pong("answer to request 1"))
            connection.reply(pong("answer to request 2"))
            _ = connection.readLine()
        }
        fake.serve([
            script,
            { connection in
                while connection.readLine() != nil { connection.reply(pong("answer to request 2")) }
            },
        ])
        let path = fake.path
        let second = try await ClientTestSupport.blocking { () -> ControlResponse? in
            let client = ControlClient(path: path)
            client.timeout = .seconds(1)
            _ = try? client.send(ControlRequest(op: .ping))
            return try? client.send(ControlRequest(op: .ping))
        }
        #expect(second?.kioskName == "answer to request 2")
    }
}
