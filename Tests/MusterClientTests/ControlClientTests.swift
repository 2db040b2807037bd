import Foundation
import MusterControl
import MusterDaemon
import MusterRules
import MusterTestSupport
import Testing

@testable import MusterClient

/// A scripted stand-in for musterd: a listening Unix socket served by a plain thread.
private final class FakeDaemon: @unchecked Sendable {
    let directory: TemporaryDirectory
    let path: String
    let listener: Int32

    /// Listens on a socket in a fresh directory, removed with the fake.
    init() throws {
        directory = try TemporaryDirectory("muster-cc")
        path = directory.file("c.sock")
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestFailure("socket() failed") }
        guard UnixSocketAddress.with(path: path, { [listener] in bind(listener, $0, $1) }) == 0,
            listen(listener, 8) == 0
        else {
            let reason = UnixSocketAddress.lastError
            close(listener)
            directory.remove()
            throw TestFailure("bind/listen failed: \(reason)")
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))  // wakes a thread still blocked in accept()
        close(listener)
        directory.remove()
    }

    /// Accepts one connection and runs `script` on it in a new thread.
    func serveOne(_ script: @escaping @Sendable (RawSocket) -> Void) {
        serve([script])
    }

    /// Accepts connections in order on one thread; the n-th runs `scripts[n]` (the last one
    /// repeats), each on its own thread.
    func serve(_ scripts: [@Sendable (RawSocket) -> Void]) {
        Thread.detachNewThread { [listener] in
            var index = 0
            while true {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let script = scripts[min(index, scripts.count - 1)]
                index += 1
                Thread.detachNewThread {
                    let connection = RawSocket(accepted: fd)
                    script(connection)
                    connection.close()
                }
            }
        }
    }
}

extension RawSocket {
    /// The next line, or nil once the client has gone (or stays silent past the timeout).
    func nextLine() -> String? {
        guard case .line(let line) = readLine() else { return nil }
        return line
    }

    func reply(_ response: ControlResponse) {
        var data = try! JSONEncoder().encode(response)
        data.append(UInt8(ascii: "\n"))
        send(Array(data))
    }
}

private func pong(_ name: String) -> ControlResponse {
    .pong(PongAnswer(kioskName: name, kioskKey: "ab", peers: []))
}

@Suite("ControlClient")
struct ControlClientTests {
    @Test func sendsOneJSONLineAndReadsOneBack() async throws {
        let fake = try FakeDaemon()
        let seen = Locked<[String]>([])
        fake.serveOne { connection in
            while let line = connection.nextLine() {
                seen.set(seen.get() + [line])
                // Answer in two pieces to make the client reassemble the line.
                connection.send("{\"outcome\":\"po")
                connection.send("ng\",\"kioskName\":\"Fake\",\"kioskKey\":\"ab\",\"peers\":[]}\n")
            }
        }
        let path = fake.path
        let responses = try await TestSupport.blocking {
            let client = ControlClient(path: path)
            let request = ControlRequest.checkIn(query: "ada@example.com")
            return [try client.send(request), try client.send(ControlRequest.ping)]
        }
        #expect(responses == [pong("Fake"), pong("Fake")])
        let lines = seen.get()
        #expect(lines.count == 2)
        let first = try JSONDecoder().decode(ControlRequest.self, from: Data(lines[0].utf8))
        #expect(first == .checkIn(query: "ada@example.com"))
    }

    @Test func malformedResponseIsAProtocolError() async throws {
        let fake = try FakeDaemon()
        fake.serveOne { connection in
            _ = connection.nextLine()
            connection.send("<html>\n")
        }
        #expect(try await ClientError.ofPing(to: fake.path)?.code == .protocolError)
    }

    @Test func connectionClosedBeforeAnswerIsUnknownOutcome() async throws {
        let fake = try FakeDaemon()
        fake.serveOne { connection in _ = connection.nextLine() }
        let error = try await ClientError.ofPing(to: fake.path)
        #expect(error?.code == .daemonUnavailable)
        #expect(error?.message.contains("outcome is unknown") == true)
        #expect(error?.exitCode == 5)
    }

    @Test func timeoutIsReportedAsUnknown() async throws {
        let fake = try FakeDaemon()
        fake.serveOne { connection in
            _ = connection.nextLine()
            _ = connection.nextLine()  // returns when the client goes away
        }
        let error = try await ClientError.ofPing(to: fake.path, timeout: .seconds(1))
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("outcome is unknown") == true)
    }

    /// After a timeout the daemon may still answer the old request. The client must not hand that
    /// late answer to the next request (the kiosk would show another person's result).
    @Test func lateAnswerIsNotTakenForTheNextRequest() async throws {
        let fake = try FakeDaemon()
        let script: @Sendable (RawSocket) -> Void = { connection in
            guard connection.nextLine() != nil else { return }
            // Hold the first answer until the client, having timed out, sends its next request.
            guard connection.nextLine() != nil else { return }
            connection.reply(pong("answer to request 1"))
            connection.reply(pong("answer to request 2"))
            _ = connection.nextLine()
        }
        fake.serve([
            script,
            { connection in
                while connection.nextLine() != nil { connection.reply(pong("answer to request 2")) }
            },
        ])
        let path = fake.path
        let second = try await TestSupport.blocking { () -> ControlResponse? in
            let client = ControlClient(path: path)
            client.timeout = .seconds(1)
            _ = try? client.send(ControlRequest.ping)
            return try? client.send(ControlRequest.ping)
        }
        #expect(second?.kioskName == "answer to request 2")
    }
}
