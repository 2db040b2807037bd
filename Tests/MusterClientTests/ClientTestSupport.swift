import Foundation
import Logging
import MusterControl
import MusterCore
import MusterCrypto
import MusterDaemon
import MusterStore
@_exported import MusterTestSupport
import MusterTime
import ServiceLifecycle

@testable import MusterClient

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum ClientTestSupport {
    static let quietLogger = TestSupport.quietLogger

    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await TestSupport.blocking(body)
    }

    /// Whether `task` ends within `seconds` (the task is left running when it does not).
    static func finishes<T: Sendable, E: Error>(_ task: Task<T, E>, within seconds: Double) async -> Bool {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let waiter = Task {
            _ = await task.result
            continuation.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            continuation.yield(false)
        }
        var iterator = stream.makeAsyncIterator()
        let finished = await iterator.next() ?? false
        timer.cancel()
        if finished { waiter.cancel() }
        return finished
    }

    static func permissions(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    static func isSocket(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFSOCK
    }
}

/// A raw, blocking Unix-socket client for speaking broken protocol to the daemon.
final class RawSocket: @unchecked Sendable {
    let fd: Int32
    private var pending: [UInt8] = []

    init(path: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            throw TestFailure("connect failed: \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends what it can; stops quietly when the peer has closed (no SIGPIPE). Returns bytes sent.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
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
    func send(_ text: String) -> Int { send(Array(text.utf8)) }

    enum ReadResult: Equatable {
        case line(String)
        case closed
        case timedOut
    }

    func readLine() -> ReadResult {
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

    func readResponse() throws -> ControlResponse {
        guard case .line(let line) = readLine() else { throw TestFailure("no response line") }
        return try JSONDecoder().decode(ControlResponse.self, from: Data(line.utf8))
    }
}

/// A real daemon in-process: config and venue files in a temp directory, a real replica, the
/// control handler, and the control server on a Unix socket.
final class LiveDaemon: @unchecked Sendable {
    let directory: TemporaryDirectory
    let configPath: String
    let config: KioskConfig
    let organizer: SigningKeyPair
    let venue: VenueFile
    let replica: Replica
    let handler: ControlHandler
    private(set) var task: Task<Void, any Error>?

    init(name: String = "Hall A", location: String = "North door") throws {
        directory = try TemporaryDirectory("muster-live")
        organizer = try SigningKeyPair.generate()
        venue = try VenueFile.create(name: "Test venue", organizer: organizer.publicKey)
        try venue.write(to: directory.file("venue.toml"))
        configPath = directory.file("musterd.toml")
        try """
        name = "\(name)"
        location = "\(location)"
        state_dir = "state"
        control_socket = "run/control.sock"
        venue = "venue.toml"
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        config = try KioskConfig.load(path: configPath)
        try FileManager.default.createDirectory(atPath: config.stateDirectory, withIntermediateDirectories: true)
        replica = try Replica.open(path: config.replicaPath, policy: venue.policy)
        // As the daemon does at start: the kiosk's own certificate is on its roster.
        let kioskKey = try SigningKeyPair.generate()
        try replica.admitCertificate(
            VenuePolicy.certificate(
                venue: venue.venue,
                organizer: organizer,
                payload: EnrollPayload(kiosk: AuthorID(kioskKey.publicKey), name: name, location: location),
                hlc: HLC(physicalMillis: SystemTime().wallMillis - 3_600_000, logical: 0)
            ),
            for: AuthorID(kioskKey.publicKey)
        )
        handler = ControlHandler(
            replica: replica,
            keyPair: kioskKey,
            config: config,
            clock: HybridLogicalClock(),
            logger: ClientTestSupport.quietLogger
        )
    }

    deinit {
        task?.cancel()
        directory.remove()
    }

    var socketPath: String { config.controlSocket }

    /// Runs `run` (the server alone, or a service group around it) and returns once the socket listens.
    /// - Parameter gate: the control socket's policy; by default this machine's users (the tests run
    ///   as root, so as staff).
    func start(
        gate: ControlGate? = nil,
        _ run: @escaping @Sendable (ControlServer) async throws -> Void = { try await $0.run() }
    ) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let listening = ControlServer(
            path: config.controlSocket,
            handler: handler,
            gate: gate,
            logger: ClientTestSupport.quietLogger,
            onListening: { continuation.yield(true) }
        )
        task = Task {
            defer { continuation.finish() }
            try await run(listening)
        }
        var iterator = stream.makeAsyncIterator()
        guard await iterator.next() == true else {
            let result = await task!.result
            throw TestFailure("the control server did not start: \(result)")
        }
    }

    /// The organizer's import and lock, signed with the organizer key and sent through the socket
    /// exactly as `muster import` and `muster lock` do.
    func importAndLock(campaignID: String = "c0ffee0000000001", lock: Bool = true) async throws {
        let configPath = configPath
        let organizer = organizer
        let bodies: [DeltaBody] =
            [
                .campaign(CampaignPayload(campaignID: campaignID, name: "DevConf 2026")),
                Self.attendee(campaignID, "ada@example.com", "Ada", "Lovelace", "Analytical", ticket: "MUS-0001"),
                Self.attendee(campaignID, "grace@example.com", "Grace", "Hopper", "Navy", ticket: "MUS-0002"),
            ] + (lock ? [.lock(LockPayload(version: 1, campaignID: campaignID, checkInStatus: "Attended"))] : [])
        let applied = try await ClientTestSupport.blocking {
            let client = try ClientContext(configPath: configPath, environment: [:])
            return try OrganizerSubmitter(client: client, keyPair: organizer).submit(bodies)
        }
        guard applied == bodies.count else { throw TestFailure("applied \(applied) of \(bodies.count)") }
    }

    static func attendee(
        _ campaign: String,
        _ email: String,
        _ first: String,
        _ last: String,
        _ company: String,
        ticket: String?
    ) -> DeltaBody {
        .attendee(
            AttendeePayload(
                campaignID: campaign,
                key: EmailAddress.key(email),
                email: email,
                firstName: first,
                lastName: last,
                company: company,
                ticket: ticket,
                salesforceID: nil,
                status: nil,
                admitted: true
            )
        )
    }
}

/// A value shared between tasks.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
