import Foundation
public import Logging
import MusterControl
import NIOCore
import NIOPosix
public import ServiceLifecycle

/// The Unix control socket (mode 0660): `muster` sends one JSON request per line and gets one JSON
/// response per line. Every write to the replica from the front end goes through here.
///
/// Every connection's peer is identified by the kernel (`SO_PEERCRED`) when it is accepted and taken
/// or closed at once by the ``ControlGate`` (anyone but staff and the screen's user, and connections
/// past ``ControlLimits``, are closed); each of its requests passes the gate too: staff may send
/// anything, the public screen's user only the screen's requests (its lookups rate limited), in lines
/// of at most ``ControlLimits/screenLineBytes``, on a connection closed after
/// ``ControlLimits/idleTimeout`` without a request.
public final class ControlServer: Service {
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
                    let role = self.gate.role(of: peer)
                    let (admitted, refusals) = self.gate.admit(peer, role: role)
                    // A refused connection is closed at once, here on the event loop, but set up like
                    // any other: a child initializer that fails ends the accept loop.
                    if case .failure(let refusal) = admitted {
                        self.logRefusal(refusal, peer: peer, refusals: refusals)
                        channel.close(promise: nil)
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineFrameDecoder(maxLineBytes: ControlLimits.lineBytes(for: role)))
                    )
                    // Torn down on deinit, not trapped: a connection accepted as the server shuts down
                    // (a revoked kiosk on its way down, a client still asking) can become active after
                    // the accept loop ended, and its wrapper is then dropped unused; with
                    // `wrappingChannelSynchronously` NIO traps on that, as it did for sync connections
                    // (RELIABILITY finding 30, SessionPipeline), and the kiosk died before its STOPPED marker.
                    return Connection(
                        channel: try NIOAsyncChannel<ByteBuffer, ByteBuffer>(synchronouslyWrapping: channel),
                        peer: peer,
                        role: role,
                        slot: try? admitted.get()
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
        guard let slot = connection.slot else { return }
        defer { gate.release(slot) }
        let idle = connection.role == .staff ? nil : IdleTimeout(time: gate.time, channel: connection.channel.channel)
        defer { idle?.cancel() }
        do {
            try await connection.channel.executeThenClose { inbound, outbound in
                // Ends with graceful shutdown (after the request in hand), so an idle kiosk screen
                // that keeps its connection open all day cannot hold up SIGTERM.
                var session = Session(peer: connection.peer, role: connection.role)
                for try await line in inbound.cancelOnGracefulShutdown() {
                    idle?.heard()
                    let reply = await self.reply(to: line.readableBytesView, session: &session)
                    // The answer is ready: the idle time counts from here, before the peer can read
                    // it (a peer that does not read its answers is idle while the write waits).
                    idle?.heard()
                    try await outbound.write(
                        Self.encode(reply.answer, for: connection.role, handles: self.gate.handles)
                    )
                    // A malformed frame ends the connection: answered once, then closed.
                    if reply.closes { return }
                }
            }
        } catch {
            logger.debug("control connection closed", metadata: ["error": "\(error)"])
        }
    }

    /// What one connection carries from one request to the next.
    struct Session {
        let peer: ControlPeer?
        let role: ControlPeerRole
        /// Organizer deltas staged by this connection; dropped, never applied, when it ends.
        var stage = SubmissionStage()
        /// Refusals are logged once per connection: a screen in a loop must not flood the journal.
        var refusalLogged = false
    }

    /// The answer to one line of a connection (as staff's answer; ``encode(_:for:)`` makes it the
    /// screen's), and whether the connection ends after it: only a line that is no request ends it.
    func reply(
        to line: some Collection<UInt8>,
        session: inout Session
    ) async -> (answer: ControlResponse, closes: Bool) {
        let request: ControlRequest
        do {
            request = gate.resolve(try ControlRequest.read(line), role: session.role)
        } catch let error where error.code == .incomplete {
            if let refusal = gate.refusal(forIncomplete: error, role: session.role) {
                logRefused(error.operation, refusal, session: &session)
                return (refusal, false)
            }
            let answer =
                if error.operation == .badge, let badgeDesk {
                    await badgeDesk.answer(incomplete: error)
                } else {
                    handler.answer(incomplete: error)
                }
            return (answer, false)
        } catch {
            logger.warning("malformed control request; closing the connection")
            return (.failure(.badRequest, "malformed control request"), true)
        }
        if let refusal = gate.refusal(for: request, role: session.role) {
            logRefused(request.operation, refusal, session: &session)
            return (refusal, false)
        }
        let response =
            if case .badge(let order) = request, let badgeDesk {
                await badgeDesk.handle(order)
            } else {
                handler.handle(request, stage: &session.stage)
            }
        gate.answered(request, with: response, role: session.role)
        return (await handler.acknowledge(response), false)
    }

    private func logRefused(
        _ operation: ControlRequest.Operation?,
        _ refusal: ControlResponse,
        session: inout Session
    ) {
        guard !session.refusalLogged else { return }
        session.refusalLogged = true
        var code = ""
        if case .error(let failure) = refusal, let failureCode = failure.code { code = failureCode.rawValue }
        logger.warning(
            "control request refused",
            metadata: [
                "op": "\(operation?.rawValue ?? "")", "role": "\(session.role.rawValue)",
                "peer": "\(session.peer.map(\.description) ?? "unknown")", "code": "\(code)",
            ]
        )
    }

    /// An accepted connection, the kernel's word on who opened it (nil if it could not be read), the
    /// role that gives it, and its place among the open connections (nil: refused and closed).
    struct Connection: Sendable {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        let peer: ControlPeer?
        let role: ControlPeerRole
        let slot: ControlAdmission.Slot?
    }

    /// Logs a refused connection: the 1st, 2nd, 4th, 8th… of them, with the count, so a flood of
    /// connections cannot flood the journal.
    private func logRefusal(_ refusal: ControlAdmission.Refusal, peer: ControlPeer?, refusals: Int) {
        guard refusals & (refusals - 1) == 0 else { return }
        logger.warning(
            "control connection refused",
            metadata: [
                "reason": "\(refusal)", "peer": "\(peer.map(\.description) ?? "unknown")",
                "refused_so_far": "\(refusals)",
            ]
        )
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

    /// The answer's line: staff's whole answer, or for the public screen's user the ``ScreenAnswer`` made
    /// of it, which has no field for what the screen may not know.
    static func encode(
        _ response: ControlResponse,
        for role: ControlPeerRole,
        handles: ScreenHandles
    ) throws -> ByteBuffer {
        var data =
            role == .screen
            ? try JSONEncoder().encode(ScreenAnswer(response, handles: handles)) : try JSONEncoder().encode(response)
        data.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: data)
    }
}
