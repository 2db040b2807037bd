import Foundation
import Logging
import MusterCore
import MusterCrypto
import MusterRules
import MusterTime
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Dial loops: one per address discovery or the configuration gave.
extension SyncService {
    /// Keeps a session with an address alive: dial, serve until it ends, back off, dial again.
    /// Its ``DialSchedule`` decides the backoff and when the loop ends (stopped, or given up).
    func dialLoop(_ address: HostPort) async {
        // Which key of the ring to dial with: the newest, and after each failure the next older one,
        // so two kiosks that each hold a different newest key (two revocations of one generation
        // signed during a partition) still meet on a key both hold and exchange the revocations.
        var dialKey = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            guard dials.shouldDial(address) else {
                dials.ended(address, .stopped)
                return
            }
            let outcome: DialSchedule.Outcome
            if let peer = addressPeers[address], sessions[peer] != nil {
                outcome = .alreadyConnected
            } else if let peer = addressPeers[address], !core.wantsSession(with: peer) {
                // Beyond the full mesh a loop redialing every kiosk it ever reached churned: each
                // session the core then closed as "view full" was dialed again (a 50-kiosk lab as an
                // overlay spent its time in handshakes). The core asks for the sessions it wants.
                outcome = .notWanted
            } else {
                do {
                    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                        .connectTimeout(.seconds(3))
                        .connect(host: address.host, port: address.port) { channel in
                            channel.eventLoop.makeCompletedFuture { try Self.wrap(channel) }
                        }
                    outcome = await serve(channel, dialed: address, key: dialKey) ? .established : .failed
                } catch {
                    logger.debug("dial failed", metadata: ["address": "\(address)", "error": "\(error)"])
                    outcome = .failed
                }
            }
            dialKey = NetworkKeyRing.nextAttempt(after: dialKey, succeeded: outcome != .failed)
            guard case .retry(let delay) = dials.attempted(address, outcome) else { return }
            await dials.pause(address, for: delay) { [time] delay in
                try? await cancelWhenGracefulShutdown { try await time.sleep(for: delay) }
            }
        }
        dials.ended(address, .shutdown)
    }
}
