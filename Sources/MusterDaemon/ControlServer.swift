import Foundation
public import Logging
import MusterControl
import NIOCore
import NIOPosix
public import ServiceLifecycle

/// The Unix control socket (mode 0660): `muster` sends one JSON request per line and gets one JSON
/// response per line. Every write to the replica from the front end goes through here.
///
/// Every connection's peer is identified by the kernel (`SO_PEERCRED`) when it is accepted, and each
/// of its requests passes the ``ControlGate``: staff may send anything, the public screen's user only
/// the screen's requests (its lookups rate limited), anyone else nothing.
public final class ControlServer: Service {
    /// Large enough for an organizer batch of a thousand signed deltas in hex.
    public static let maxRequestBytes = 8 * 1024 * 1024

    let path: String
    let handler: ControlHandler
    let logger: Logger
    let onListening: @Sendable () -> Void
    /// Prints badges (`badge` requests), which wait on the printer: answered on this connection
    /// without holding up any other.
    let badgeDesk: BadgeDesk?
    /// Who may send what, and how fast the screen's user may look people up.
    let gate: ControlGate

    /// - Parameter gate: the policy; by default this machine's users (root, the daemon's user and
    ///   group are staff; `[screen] user` is the screen) and the system clock.
    public init(
        path: String,
        handler: ControlHandler,
        badgeDesk: BadgeDesk? = nil,
        gate: ControlGate? = nil,
        logger: Logger,
        onListening: @escaping @Sendable () -> Void
    ) {
        self.path = path
        self.handler = handler
        self.badgeDesk = badgeDesk
        self.gate = gate ?? .system(config: handler.config)
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o750]
        )
        // The socket is created by bind(2) with the process umask; make it never wider than 0660.
        let previousMask = umask(0o117)
        defer { umask(previousMask) }
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true) { channel in
                Self.peer(of: channel).flatMapThrowing { peer in
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maxLineBytes: Self.maxRequestBytes))
                    )
                    return Connection(
                        channel: try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel),
                        peer: peer
                    )
                }
            }
        guard chmod(path, 0o660) == 0 else {
            let failure = SocketError(call: "chmod", path: path, errno: errno)
            try? await server.channel.close()
            throw DaemonError(
                .controlSocket,
                "cannot set mode 0660 on \(path): \(String(cString: strerror(failure.errno)))",
                cause: failure
            )
        }
        logger.info(
            "control socket listening",
            metadata: [
                "path": "\(path)", "screen_uid": "\(gate.roles.screenUID.map(String.init) ?? "none (no such user)")",
            ]
        )
        onListening()

        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await self.serve(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
        unlink(path)
    }

    private func serve(_ connection: Connection) async {
        let role = gate.role(of: connection.peer)
        var refusalLogged = false
        do {
            try await connection.channel.executeThenClose { inbound, outbound in
                // Ends with graceful shutdown (after the request in hand), so an idle kiosk screen
                // that keeps its connection open all day cannot hold up SIGTERM.
                // Organizer deltas staged by this connection; dropped, never applied, when it ends.
                var stage = SubmissionStage()
                for try await line in inbound.cancelOnGracefulShutdown() {
                    let request: ControlRequest
                    do {
                        request = try JSONDecoder().decode(ControlRequest.self, from: Data(line.readableBytesView))
                    } catch {
                        // A malformed frame ends the connection: answer once, then close.
                        logger.warning("malformed control request; closing the connection")
                        try await outbound.write(
                            Self.encode(.failure(.badRequest, "malformed control request"))
                        )
                        return
                    }
                    if let refusal = gate.refusal(for: request, role: role) {
                        // Once per connection: a screen in a loop must not flood the journal.
                        if !refusalLogged {
                            refusalLogged = true
                            logger.warning(
                                "control request refused",
                                metadata: [
                                    "op": "\(request.op.rawValue)", "role": "\(role.rawValue)",
                                    "peer": "\(connection.peer.map(\.description) ?? "unknown")",
                                    "code": "\(refusal.errorCode?.rawValue ?? "")",
                                ]
                            )
                        }
                        try await outbound.write(Self.encode(refusal))
                        continue
                    }
                    let response =
                        if request.op == .badge, let badgeDesk {
                            await badgeDesk.handle(request)
                        } else {
                            handler.handle(request, stage: &stage)
                        }
                    gate.answered(request, with: response, role: role)
                    try await outbound.write(Self.encode(ControlAccessPolicy.shape(response, for: role)))
                }
            }
        } catch {
            logger.debug("control connection closed", metadata: ["error": "\(error)"])
        }
    }

    /// An accepted connection and the kernel's word on who opened it (nil if it could not be read).
    struct Connection: Sendable {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        let peer: ControlPeer?
    }

    /// `SO_PEERCRED` of an accepted Unix socket, read on its event loop before anything is served. A
    /// channel that cannot say (never on Linux) gives nil, which the gate treats as a stranger.
    static func peer(of channel: any Channel) -> EventLoopFuture<ControlPeer?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<ControlPeer.Credentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        return credentials.map { ControlPeer($0) }.recover { _ in nil }
    }

    static func encode(_ response: ControlResponse) throws -> ByteBuffer {
        var data = try JSONEncoder().encode(response)
        data.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: data)
    }
}
