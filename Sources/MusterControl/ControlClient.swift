import Foundation

/// The blocking side of the control socket, shared by `muster`, `muster doctor`, the benchmark and
/// the fault tool: one connection, one JSON line per request, one line back.
///
/// Blocking is right here: the front end does one thing at a time and waits for the daemon's
/// durable acknowledgement before it tells the attendee anything.
public final class ControlClient {
    public let path: String
    private var socket: UnixSocket?
    private var buffer: [UInt8] = []
    /// How long to wait for the daemon's answer; a timeout is reported as unknown, never as failure.
    /// A change applies to the open connection at once (a request known to take long can raise it).
    public var timeout: Duration {
        didSet { socket?.setTimeout(receive: timeout, send: sendTimeout) }
    }
    /// Whether a send may also block that long (the fault tool sets it, so a stuck daemon cannot hang it).
    public var sendTimeout: Duration?

    public init(path: String, timeout: Duration = .seconds(30), sendTimeout: Duration? = nil) {
        self.path = path
        self.timeout = timeout
        self.sendTimeout = sendTimeout
    }

    private func connectIfNeeded() throws(ControlClientError) -> UnixSocket {
        if let socket { return socket }
        let connected: UnixSocket
        do {
            connected = try UnixSocket.connect(to: path)
        } catch {
            let message =
                error.call == "path"
                ? "control socket path is too long: \(path)"
                : "cannot reach musterd at \(path) (\(String(cString: strerror(error.errno)))); is the daemon running?"
            throw ControlClientError(.unreachable, message, requestSent: false, cause: error)
        }
        connected.setTimeout(receive: timeout, send: sendTimeout)
        socket = connected
        return connected
    }

    /// Sends one request and waits for its response.
    ///
    /// Any failure closes the connection, so a late answer can never be read as the answer to the
    /// next request, and the next call connects afresh (the daemon may have restarted). If a reused
    /// connection turns out to be dead before the request was written, the request is sent once more
    /// on a new connection; once it was written, a missing answer is reported as unknown, never retried.
    public func send(_ request: ControlRequest) throws(ControlClientError) -> ControlResponse {
        try send(request, answer: ControlResponse.self)
    }

    /// Sends one request and reads its response as `Answer`: the public screen reads a ``ScreenAnswer``.
    public func send<Answer: Decodable>(
        _ request: ControlRequest,
        answer: Answer.Type
    ) throws(ControlClientError) -> Answer {
        var data: Data
        do {
            data = try JSONEncoder().encode(request)
        } catch {
            throw ControlClientError(.protocolError, "cannot encode the request: \(error)", requestSent: false)
        }
        data.append(UInt8(ascii: "\n"))
        let bytes = Array(data)
        let reused = socket != nil
        do {
            try write(bytes, on: try connectIfNeeded())
        } catch {
            disconnect()
            guard reused, !error.requestSent else { throw error }
            do {
                try write(bytes, on: try connectIfNeeded())
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
            return try JSONDecoder().decode(Answer.self, from: Data(line))
        } catch {
            disconnect()
            throw ControlClientError(.protocolError, "musterd sent a malformed response", requestSent: true)
        }
    }

    /// Closes the connection; the next ``send(_:)`` opens a new one.
    public func disconnect() {
        socket = nil
        buffer = []
    }

    private func write(_ bytes: [UInt8], on socket: UnixSocket) throws(ControlClientError) {
        do {
            try socket.sendAll(bytes)
        } catch {
            throw ControlClientError(
                .unreachable,
                "lost the connection to musterd (\(String(cString: strerror(error.cause.errno))))",
                requestSent: error.bytesSent > 0,
                cause: error.cause
            )
        }
    }

    private func readLine() throws(ControlClientError) -> [UInt8] {
        guard let socket else {
            throw ControlClientError(.unreachable, "not connected to musterd", requestSent: true)
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count: Int
            do {
                count = try socket.read(into: &chunk)
            } catch {
                if error.isTimeout {
                    throw ControlClientError(
                        .timeout,
                        "musterd did not answer within \(timeout.components.seconds) s; the outcome is unknown",
                        requestSent: true,
                        cause: error
                    )
                }
                throw ControlClientError(
                    .unreachable,
                    "lost the connection to musterd (\(String(cString: strerror(error.errno))))",
                    requestSent: true,
                    cause: error
                )
            }
            if count == 0 {
                throw ControlClientError(
                    .unreachable,
                    "musterd closed the connection before answering; the outcome is unknown",
                    requestSent: true
                )
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
