import Logging
public import MusterCore
public import MusterRules
import ServiceLifecycle

/// When each peer kiosk was last heard this run (wall-clock milliseconds), kept after its session
/// ends, and the solitude the log last said.
struct HeardPeers: Sendable {
    var at: [AuthorID: UInt64] = [:]
    var logged: Solitude?

    /// Records a word from `peer`; true when the kiosk had logged itself alone (so it checks again now).
    mutating func heard(_ peer: AuthorID, at now: UInt64) -> Bool {
        at[peer] = now
        return logged != nil
    }
}

extension SyncService {
    /// Whether this kiosk works alone now (``Solitude``): the roster's other kiosks against when each
    /// was last heard this run. Read by `status`, `doctor` and the screen, and every second by
    /// ``solitudeLoop()``; each change it sees is logged once. Nil when the roster cannot be read.
    public nonisolated func solitude() -> Solitude? {
        guard let roster = try? replica.roster() else { return nil }
        let own = roster.first { $0.kiosk == me }?.location ?? ""
        let heardAt = heard.withLock { $0.at }
        let now = Solitude.judge(
            nowMillis: time.wallMillis,
            startedMillis: startedMillis,
            ownLocation: own,
            peers: Solitude.peers(roster: roster, me: me, heard: heardAt)
        )
        let before = heard.withLock { heard in
            defer { heard.logged = now }
            return heard.logged
        }
        if now != before { log(now) }
        return now
    }

    /// When each peer kiosk was last heard this run (wall-clock milliseconds), for `muster fleet`.
    public nonisolated func heardAt() -> [AuthorID: UInt64] { heard.withLock { $0.at } }

    /// Once a second, so the log says a kiosk works alone within a second of it, status asked or not.
    nonisolated func solitudeLoop() async {
        while !Task.isShuttingDownGracefully {
            try? await cancelWhenGracefulShutdown { try await self.time.sleep(for: .seconds(1)) }
            _ = solitude()
        }
    }

    private nonisolated func log(_ solitude: Solitude?) {
        guard let solitude else {
            logger.info("no longer working alone: peers heard again")
            return
        }
        logger.warning(
            "working alone",
            metadata: [
                "since_ms": "\(solitude.sinceMillis)", "unheard": "\(solitude.unheardZone ?? "every other kiosk")",
            ]
        )
    }
}
