import Foundation
import Logging
import MusterCore
import MusterRules
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The service's run: the listener, the local commits, the dial loops and the anti-entropy tick,
/// until a graceful shutdown.
extension SyncService {
    public func run() async throws {
        refreshKeyRing()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: SyncLimits.listenBacklog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: configuration.listenHost, port: configuration.listenPort) { [unauthenticated] channel in
                channel.eventLoop.makeCompletedFuture { try Self.wrap(channel, unauthenticated: unauthenticated) }
            }
        let port = server.channel.localAddress?.port
        boundPort.withLock { $0 = port }
        logger.info("sync listening", metadata: ["address": "\(configuration.listenHost):\(port ?? -1)"])
        for peer in configuration.staticPeers { dial(peer) }

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    try? await server.executeThenClose { inbound in
                        try await withThrowingDiscardingTaskGroup { connections in
                            // Not cancelled on shutdown: the shutdown closes the server channel, which
                            // ends this sequence. A connection accepted before that is still taken out
                            // and closed through its own executeThenClose: NIO traps on an async channel
                            // dropped unused ("Deinited NIOAsyncWriter without calling finish()"), which
                            // crashed a revoked kiosk on its way down instead of leaving its marker.
                            for try await connection in inbound {
                                if Task.isShuttingDownGracefully {
                                    connections.addTask { try? await connection.executeThenClose { _, _ in } }
                                } else {
                                    connections.addTask { await self.serve(connection, dialed: nil) }
                                }
                            }
                        }
                    }
                }
                group.addTask {
                    for await deltas in self.localDeltas.cancelOnGracefulShutdown() {
                        await self.committedLocally(deltas)
                    }
                }
                group.addTask {
                    await withDiscardingTaskGroup { dials in
                        for await target in self.dialRequests.cancelOnGracefulShutdown() {
                            dials.addTask { await self.dialLoop(target) }
                        }
                    }
                }
                group.addTask { await self.antiEntropyLoop() }
                group.addTask { await self.solitudeLoop() }
                group.addTask { await self.statusLoop() }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
            self.unauthenticated.closeAll()
            self.localContinuation.finish()
            self.dialContinuation.finish()
            Task { await self.closeAll() }
        }
        await storeDrained()
    }

    /// Deltas written here: their devices' certificates go out first, then the deltas; a
    /// revocation among them takes effect here at once.
    private func committedLocally(_ deltas: [SignedDelta]) async {
        await announceDevices(of: deltas)
        drive(.localCommit(deltas))
        let revocations = deltas.compactMap { delta -> RevokePayload? in
            guard delta.kind == .revoke, case .revoke(let payload)? = try? delta.decode().body else { return nil }
            return payload
        }
        if !revocations.isEmpty { await applyRevocations(revocations) }
    }

    /// Once per anti-entropy interval: the heap trimmed and the digest computed when
    /// ``DigestCadence`` says so (the digest off the actor: hashing a large replica must not hold
    /// up the sessions), and the store's heads handed to the core.
    private nonisolated func antiEntropyLoop() async {
        var cadence = DigestCadence()
        while !Task.isShuttingDownGracefully {
            try? await cancelWhenGracefulShutdown { try await self.time.sleep(for: SyncLimits.antiEntropyInterval) }
            let (trim, digest) = cadence.tick(version: stateVersion.load(ordering: .acquiring))
            if trim { onQuiet() }
            if digest, let value = currentDigest() { await drive(.digest(value)) }
            await refreshHeads()
        }
    }

    static func wrap(
        _ channel: any Channel,
        unauthenticated: UnauthenticatedConnections? = nil
    ) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try SessionPipeline.configure(channel, unauthenticated: unauthenticated)
    }

    func closeAll() {
        stopped = true
        for task in timerTasks.values { task.cancel() }
        timerTasks = [:]
        for session in sessions.values { session.close() }
    }
}
