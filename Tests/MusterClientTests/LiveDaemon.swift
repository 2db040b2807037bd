import Foundation
import Logging
import MusterControl
import MusterCore
import MusterCrypto
import MusterDaemon
import MusterRules
import MusterStore
import MusterTestSupport
import MusterTime
import ServiceLifecycle
import Testing

@testable import MusterClient

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

    /// - Parameter venueOf: another daemon whose venue (and organizer key) this one shares: a second
    ///   kiosk of the same venue, which does not sync with the first.
    init(name: String = "Hall A", location: String = "North door", venueOf other: LiveDaemon? = nil) throws {
        directory = try TemporaryDirectory("muster-live")
        organizer = try other?.organizer ?? SigningKeyPair.generate()
        venue = try other?.venue ?? VenueFile.create(name: "Test venue", organizer: organizer.publicKey)
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
        let kioskKey = try SigningKeyPair.generate()
        try replica.enroll(
            kioskKey,
            venue: venue.venue,
            organizer: organizer,
            name: name,
            location: location,
            atMillis: SystemTime().wallMillis - 3_600_000
        )
        handler = ControlHandler(
            replica: replica,
            keyPair: kioskKey,
            config: config,
            clock: HybridLogicalClock(),
            logger: TestSupport.quietLogger
        )
    }

    deinit {
        task?.cancel()
        directory.remove()
    }

    var socketPath: String { config.controlSocket }

    /// A daemon whose control server (alone) listens.
    static func started() async throws -> LiveDaemon {
        let daemon = try LiveDaemon()
        try await daemon.start()
        return daemon
    }

    /// A started daemon with the organizer's import of Ada and Grace, locked (``importAndLock(campaignID:lock:)``).
    static func importedAndLocked() async throws -> LiveDaemon {
        let daemon = try await started()
        try await daemon.importAndLock()
        return daemon
    }

    /// A started daemon that has answered a ping, and the task its server runs in.
    static func answering() async throws -> (LiveDaemon, Task<Void, any Error>) {
        let daemon = try await started()
        let task = try #require(daemon.task)
        _ = try await daemon.send(ControlRequest.ping)
        return (daemon, task)
    }

    /// Runs `body` with a raw connection to the control socket, off the cooperative pool.
    func withRawSocket<T: Sendable>(_ body: @escaping @Sendable (RawSocket) throws -> T) async throws -> T {
        let path = socketPath
        return try await TestSupport.blocking { try body(try RawSocket(path: path)) }
    }

    /// Whether the control socket's file is there.
    var socketExists: Bool { FileManager.default.fileExists(atPath: socketPath) }

    /// Sends `request` on a new connection, as one `muster` command does, off the cooperative pool.
    func send(_ request: ControlRequest) async throws -> ControlResponse {
        let path = socketPath
        return try await TestSupport.blocking { try ControlClient(path: path).send(request) }
    }

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
            logger: TestSupport.quietLogger,
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
                Bodies.attendee(
                    campaignID,
                    email: "ada@example.com",
                    first: "Ada",
                    last: "Lovelace",
                    company: "Analytical",
                    ticket: "MUS-0001",
                    status: nil
                ),
                Bodies.attendee(
                    campaignID,
                    email: "grace@example.com",
                    first: "Grace",
                    last: "Hopper",
                    company: "Navy",
                    ticket: "MUS-0002",
                    status: nil
                ),
            ] + (lock ? [.lock(LockPayload(version: 1, campaignID: campaignID, checkInStatus: "Attended"))] : [])
        let applied = try await TestSupport.blocking {
            let client = try ClientContext(configPath: configPath, environment: [:])
            return try OrganizerSubmitter(client: client, keyPair: organizer).submit(bodies)
        }
        guard applied == bodies.count else { throw TestFailure("applied \(applied) of \(bodies.count)") }
    }
}
