import Foundation
public import Logging
public import MusterControl
import MusterCore
public import MusterCrypto
import MusterRules
public import MusterStore
import MusterSync
import MusterTime
import ServiceLifecycle

/// Wires the daemon: state directory, venue file, kiosk key, replica, control socket and systemd
/// notifier, run as one `ServiceGroup` that shuts down in reverse order on SIGTERM or SIGINT.
public struct Daemon: Sendable {
    public let config: KioskConfig
    public let logger: Logger
    public let clockOffsetMillis: Int64
    /// Where "now" and every sleep come from: the machine's clocks unless a test injects a ``ManualClock``.
    public let time: any TimeSource

    public init(
        config: KioskConfig,
        logger: Logger,
        clockOffsetMillis: Int64 = 0,
        time: any TimeSource = SystemTime()
    ) {
        self.config = config
        self.logger = logger
        self.clockOffsetMillis = clockOffsetMillis
        self.time = time
    }

    /// What ``prepare()`` opened.
    public struct Parts: Sendable {
        public let venue: VenueFile
        public let replica: Replica
        public let keyPair: SigningKeyPair
        public let clock: HybridLogicalClock
        /// What the organizer's certificate says this kiosk is: its location is the door's zone.
        public let enrollment: EnrollPayload
    }

    /// Opens everything the daemon needs; fails with an actionable ``DaemonError``.
    public func prepare() throws -> Parts {
        try refuseAfterRevocation()
        let venue = try loadVenue()
        try prepareStateDirectory()
        let (keyPair, certificate, enrollment) = try identity(in: venue)
        let replica: Replica
        do {
            replica = try Replica.open(path: config.replicaPath, policy: venue.policy)
            _ = try replica.admitCertificate(certificate, for: AuthorID(keyPair.publicKey))
        } catch {
            throw DaemonError(.replica, describing: error)
        }
        let clock = HybridLogicalClock(
            time: time,
            offsetMillis: clockOffsetMillis,
            boundMillis: UInt64(config.clockBoundSeconds) * 1000
        )
        if let newest = try replica.newestHLC(author: AuthorID(keyPair.publicKey)) { clock.observe(newest) }
        logger.info(
            "replica open",
            metadata: [
                "kiosk": "\(config.name)", "fingerprint": "\(keyPair.publicKey.fingerprint)",
                "replica": "\(config.replicaPath)",
            ]
        )
        return Parts(venue: venue, replica: replica, keyPair: keyPair, clock: clock, enrollment: enrollment)
    }

    /// A kiosk that was revoked (and wiped) or stopped by a revocation (and kept its data) does not start
    /// until a person has dealt with it and deleted the marker.
    private func refuseAfterRevocation() throws(DaemonError) {
        if let marker = try? String(contentsOfFile: config.revokedMarkerPath, encoding: .utf8) {
            throw DaemonError(
                .revoked,
                "this kiosk was revoked by the organizer and its attendee data was wiped (\(marker.trimmingCharacters(in: .whitespacesAndNewlines))). "
                    + "To use this box again, delete \(config.revokedMarkerPath) and enroll it anew: muster join-request"
            )
        }
        if let marker = try? String(contentsOfFile: config.stoppedMarkerPath, encoding: .utf8) {
            throw DaemonError(
                .revoked,
                "this kiosk stopped after a revocation and kept all its data (\(TerminalText.sanitize(marker.trimmingCharacters(in: .whitespacesAndNewlines)))). "
                    + "Once that is dealt with, delete \(config.stoppedMarkerPath) and start musterd again"
            )
        }
    }

    private func loadVenue() throws(DaemonError) -> VenueFile {
        guard FileManager.default.fileExists(atPath: config.venue) else {
            throw DaemonError(
                .notEnrolled,
                "this kiosk has not joined a venue (no \(config.venue)): run `muster join-request` here, "
                    + "`muster enroll` on the organizer's machine, then `muster join BUNDLE` here"
            )
        }
        do {
            return try VenueFile.load(path: config.venue)
        } catch {
            throw DaemonError(.venue, describing: error)
        }
    }

    /// The state directory, created private, and the permissions of what it holds checked.
    private func prepareStateDirectory() throws(DaemonError) {
        do {
            try FileManager.default.createDirectory(
                atPath: config.stateDirectory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw DaemonError(
                .stateDirectory,
                "cannot create the state directory \(config.stateDirectory): \(error.localizedDescription)",
                cause: error
            )
        }
        do {
            try StatePermissions.check(config)
        } catch {
            throw DaemonError(.permissions, "refusing to start: \(error)", cause: error)
        }
    }

    /// This kiosk's key (made on first start), its certificate, and the enrollment the certificate carries:
    /// verified here as well as when the replica admits it, so that a moved kiosk is refused before its
    /// replica is opened or written.
    private func identity(in venue: VenueFile) throws(DaemonError) -> (SigningKeyPair, SignedDelta, EnrollPayload) {
        let keyPair: SigningKeyPair
        let created: Bool
        do {
            (keyPair, created) = try KioskIdentity.loadOrCreateKey(config: config)
        } catch {
            throw DaemonError(error)
        }
        if created {
            logger.notice("generated a new kiosk key", metadata: ["fingerprint": "\(keyPair.publicKey.fingerprint)"])
        }
        let certificate: SignedDelta?
        do {
            certificate = try KioskIdentity.loadCertificate(config: config)
        } catch {
            throw DaemonError(error)
        }
        guard let certificate else {
            throw DaemonError(
                .notEnrolled,
                "this kiosk (\(keyPair.publicKey.fingerprint)) is not enrolled in venue '\(venue.name)': run "
                    + "`muster join-request` here, `muster enroll` on the organizer's machine, then `muster join BUNDLE` here"
            )
        }
        let enrollment: EnrollPayload
        do {
            enrollment = try EnrollmentCertificate.verify(
                certificate,
                for: AuthorID(keyPair.publicKey),
                policy: venue.policy
            )
        } catch {
            throw DaemonError(.replica, describing: error)
        }
        do {
            try KioskIdentity.checkLocation(config: config, enrollment: enrollment)
        } catch {
            throw DaemonError(error)
        }
        return (keyPair, certificate, enrollment)
    }

    static func detail(_ report: PeerReport) -> PeerDetail {
        PeerDetail(
            key: report.state.peer.hex,
            name: report.state.name,
            location: report.state.location,
            address: report.state.address,
            lastSeenMillis: report.state.lastHeardMillis,
            behind: report.behind,
            ahead: report.ahead,
            digestMatches: report.digestMatches,
            deltasReceived: report.state.deltasReceived,
            copiesReceived: report.state.copiesReceived
        )
    }

    /// systemd's STATUS= line: peers, how far the furthest one lags, and whether digests agree.
    static func statusLine(_ peers: [PeerReport]) -> String {
        guard !peers.isEmpty else { return "serving; no peers in session" }
        let lag = peers.map { max($0.behind, $0.ahead) }.max() ?? 0
        let agree = peers.filter { $0.digestMatches == true }.count
        return "serving; \(peers.count) peer(s), largest lag \(lag) delta(s), digest equal with \(agree)/\(peers.count)"
    }

    /// After a revocation ``RevocationVerdict`` allows to wipe: the attendee data, the kiosk key, the certificate and the venue file (which holds
    /// the venue's network key: a thief must not keep it to listen to or dial the venue) are deleted, and a
    /// marker keeps the daemon from starting again until someone enrolls the box anew.
    func wipe(_ parts: Parts, reason: String) {
        try? parts.replica.close()
        for path in [
            config.replicaPath, config.replicaPath + "-wal", config.replicaPath + "-shm",
            config.enrollmentPath, config.kioskKeyPath, config.venue,
        ] {
            try? FileManager.default.removeItem(atPath: path)
            if FileManager.default.fileExists(atPath: path) {
                logger.error(
                    "could not delete a file of the revoked kiosk; delete it by hand",
                    metadata: ["path": "\(path)"]
                )
            }
        }
        leaveMarker(config.revokedMarkerPath, "revoked", reason: reason)
        logger.critical(
            "wiped the attendee data of this revoked kiosk",
            metadata: ["marker": "\(config.revokedMarkerPath)"]
        )
    }

    /// The marker that keeps musterd from starting again (`REVOKED`, `STOPPED`), with when and why.
    func leaveMarker(_ path: String, _ what: String, reason: String) {
        let stamp = ISO8601DateFormatter().string(from: time.wallDate)
        try? "\(what) at \(stamp): \(reason)\n".write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What ``RevocationVerdict`` says of this kiosk, from its own replica and what its peers said
    /// they hold this run (`peersHold`).
    func revocationVerdict(_ parts: Parts, peersHold: [AuthorID: [AuthorID: UInt64]]) -> RevocationVerdict {
        let me = AuthorID(parts.keyPair.publicKey)
        guard let membership = try? parts.replica.membership(of: me) else { return .notInForce }
        let unknown = [HeldOnlyHere(author: me, through: .max, knownElsewhere: 0)]
        return RevocationVerdict.judge(
            membership: membership,
            organizer: parts.replica.policy.organizer,
            heldOnlyHere: (try? parts.replica.recordsHeldOnlyHere(me: me, peersHold: peersHold)) ?? unknown
        )
    }

    /// A revocation stopped this kiosk without the proof a wipe needs: every file stays, and a
    /// marker keeps the daemon from starting again until a person has looked.
    func stopKeepingData(_ parts: Parts, reason: String) {
        try? parts.replica.close()
        leaveMarker(config.stoppedMarkerPath, "stopped", reason: reason)
        logger.critical(
            "stopped after a revocation; every file kept",
            metadata: ["reason": "\(reason)", "marker": "\(config.stoppedMarkerPath)"]
        )
    }

    /// Carries out a revocation of this kiosk as ``RevocationVerdict`` allows, and says what was done.
    func actOnRevocation(_ parts: Parts, hint: String, peersHold: [AuthorID: [AuthorID: UInt64]] = [:]) -> DaemonError {
        switch revocationVerdict(parts, peersHold: peersHold) {
        case .wipe(let reason):
            wipe(parts, reason: reason)
            return DaemonError(.revoked, "this kiosk was revoked by the organizer; its attendee data was wiped")
        case .stop(let reason):
            stopKeepingData(parts, reason: reason)
            return DaemonError(.revoked, "this kiosk stopped after a revocation and kept its data: \(reason)")
        case .notInForce:
            stopKeepingData(parts, reason: hint)
            return DaemonError(.revoked, "this kiosk stopped and kept its data: \(hint)")
        }
    }

    /// Runs until SIGTERM/SIGINT. `READY=1` is sent only once the control socket accepts requests.
    public func run() async throws {
        HeapTrim.limitArenas()
        let parts = try prepare()
        // Deltas a revocation set aside that no longer counts (its device was revoked meanwhile).
        _ = try? parts.replica.restoreSetAside(
            nowMillis: parts.clock.nowMillis,
            clockBoundMillis: parts.clock.boundMillis
        )
        let asking = try revocationToAskAbout(parts)
        // The door's zone is the certificate's location: prepare refused any other in the config,
        // so this fills in an empty one.
        var config = self.config
        config.location = parts.enrollment.location
        let shutdown = RevocationShutdown()
        let trace = CommitTrace.fromEnvironment(kioskName: config.name)
        if trace != nil { logger.notice("commit trace on (MUSTER_COMMIT_TRACE)") }
        let sync = syncService(parts, config: config, asking: asking, shutdown: shutdown, trace: trace)
        let group = try serviceGroup(parts, config: config, sync: sync, trace: trace)
        shutdown.attach(group)
        try await group.run()
        sync.recordPendingHeldElsewhere()
        if let reason = shutdown.reason {
            throw actOnRevocation(parts, hint: reason, peersHold: sync.peersHold.withLock { $0 })
        }
        logger.info("stopped")
    }

    /// Started under a device's revocation (a person deleted the STOPPED marker): the peers are asked
    /// again. Those that still hold it refuse this kiosk, which keeps asking and does not stop for
    /// them; one that took it back (the organizer key revoked the device) admits it and hands over
    /// the revocation of the device, and this kiosk takes back its own revocation too. Under the
    /// organizer key's own revocation the kiosk does not start.
    private func revocationToAskAbout(_ parts: Parts) throws -> SignedDelta? {
        guard case .revoked(_, let evidence) = try parts.replica.membership(of: AuthorID(parts.keyPair.publicKey))
        else { return nil }
        if evidence.author == parts.replica.policy.organizer {
            throw actOnRevocation(parts, hint: "revoked by the organizer")
        }
        logger.warning("an organizer device revoked this kiosk; asking the peers whether that still holds")
        return evidence
    }

    /// The sync service; a revocation it hears shuts the daemon down, unless it is the device's
    /// revocation this kiosk is asking about and a peer still holds it.
    private func syncService(
        _ parts: Parts,
        config: KioskConfig,
        asking: SignedDelta?,
        shutdown: RevocationShutdown,
        trace: CommitTrace?
    ) -> SyncService {
        let clock = parts.clock
        let me = AuthorID(parts.keyPair.publicKey)
        return SyncService(
            configuration: SyncService.Configuration(
                listenHost: config.listen.host,
                listenPort: config.listen.port,
                staticPeers: config.staticPeers,
                time: time,
                fullMeshThreshold: config.fullMeshThreshold
            ),
            replica: parts.replica,
            keyPair: parts.keyPair,
            networkKey: parts.venue.networkKey,
            keyGeneration: parts.venue.keyGeneration,
            logger: logger,
            clockNow: { (clock.nowMillis, clock.boundMillis) },
            observeHLC: { clock.observe($0) },
            onRevoked: { [logger] reason in
                if let asking, case .revoked(_, let evidence)? = try? parts.replica.membership(of: me),
                    evidence == asking
                {
                    logger.warning("a peer still holds this kiosk revoked by an organizer device; asking the others")
                    return
                }
                shutdown.revoked(reason)
            },
            onQuiet: {
                parts.replica.settle()
                HeapTrim.trim()
            },
            describeSelf: { [time] in
                (
                    BadgeDesk.printerWords(config: config, time: time),
                    Replica.freeBytes(in: config.stateDirectory) ?? 0
                )
            },
            commitTrace: trace
        )
    }

    /// Every service of the daemon in the order they start (they stop in reverse): systemd's notifier,
    /// sync, discovery, the audit flush, the control socket, the shutdown deadline.
    private func serviceGroup(
        _ parts: Parts,
        config: KioskConfig,
        sync: SyncService,
        trace: CommitTrace?
    ) throws -> ServiceGroup {
        let handler = ControlHandler(
            replica: parts.replica,
            keyPair: parts.keyPair,
            config: config,
            clock: parts.clock,
            logger: logger,
            published: { sync.published($0) },
            peers: { sync.connectedPeers.withLock { $0 } },
            peerDetails: { sync.peerReport().map(Self.detail) },
            keyGeneration: { sync.keyGeneration },
            solitude: { sync.solitude() },
            heard: { sync.heardAt() },
            awaitCopies: { await sync.awaitCopies($0, within: KioskConfig.ackWait) },
            fleet: { sync.fleetStatuses() },
            commitTrace: trace
        )
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: sync)]
        if config.discovery {
            services.append(
                .init(
                    service: DiscoveryService(
                        sync: sync,
                        venueID: parts.venue.venue.hex,
                        fingerprint: parts.keyPair.publicKey.fingerprint,
                        logger: logger,
                        time: time
                    )
                )
            )
        }
        let notifier = SystemdNotifier(time: time, status: { Self.statusLine(sync.peerReport()) })
        let neighbour = config.badge.fallback.map { name in
            BadgeDesk.NeighbourPrinter(name: name) { key in
                await sync.printOnPeer(named: name, attendeeKey: key, within: BadgeDesk.neighbourWait)
            }
        }
        let badgeDesk = try BadgeDesk.make(
            config: config,
            handler: handler,
            time: time,
            neighbour: neighbour,
            logger: logger
        )
        // A peer whose fallback names this kiosk has its badges printed here, when there is a queue.
        if config.badge.printer != nil { sync.servePrints { await badgeDesk.printForPeer($0) } }
        let control = ControlServer(
            path: config.controlSocket,
            handler: handler,
            badgeDesk: badgeDesk,
            gate: .system(config: config, time: time),
            logger: logger
        ) {
            [config] in
            notifier.notify("READY=1\nSTATUS=serving as \(config.name)")
        }
        let audit = AuditFlushService(handler: handler, time: time, logger: logger)
        var ordered: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: notifier)]
        ordered += services
        // The audit flush stops after the control socket (reverse order), so it records every held scan.
        ordered += [.init(service: audit), .init(service: control), .init(service: ShutdownDeadline(logger: logger))]
        return ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: ordered,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
    }
}
