import Foundation
public import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTime

/// `muster doctor`: checks what breaks at a venue and says what to do.
///
/// Each check reads the machine (files, sockets, interfaces, the clock) through ``Probe``, so the
/// rules are testable with a fake machine.
public struct Doctor {
    /// The facts of the machine the checks need.
    public struct Probe {
        /// Whether a Unix socket at the path accepts a connection.
        public var socketAnswers: (String) -> Bool
        /// Up, non-loopback interfaces with IPv4 and whether each has multicast enabled.
        public var interfaces: () -> [(name: String, multicast: Bool)]
        public var nowMillis: () -> UInt64
        /// Whether the current user can create files in the directory.
        public var writable: (String) -> Bool
        /// Free bytes on the file system holding the directory (nil when unknown).
        public var freeBytes: (String) -> UInt64? = { _ in nil }

        public static var system: Probe {
            Probe(
                socketAnswers: UnixSocket.answers(at:),
                interfaces: Doctor.systemInterfaces,
                nowMillis: { SystemTime().wallMillis },
                writable: { access($0, W_OK) == 0 },
                freeBytes: Replica.freeBytes(in:)
            )
        }
    }

    /// Where avahi-daemon listens for its clients.
    public static let avahiSocket = "/run/avahi-daemon/socket"
    /// 2024-01-01: a clock before this has not been set.
    static let earliestPlausibleMillis: UInt64 = 1_704_067_200_000

    let config: KioskConfig
    let probe: Probe

    public init(config: KioskConfig, probe: Probe = .system) {
        self.config = config
        self.probe = probe
    }

    public func run() -> [DoctorCheck] {
        var checks = [stateDirectory(), diskSpace(), enrollment()]
        let venue = try? VenueFile.load(path: config.venue)
        let daemon = daemonCheck()
        checks.append(daemon.check)
        checks.append(contentsOf: [avahi(), multicast()])
        let replica = venue.flatMap { try? Replica.openReadOnly(path: config.replicaPath, policy: $0.policy) }
        checks.append(clock(replica: replica))
        checks.append(lock(replica: replica))
        if let inSession = daemon.peers { checks.append(peers(inSession)) }
        if let solitude = daemon.solitude { checks.append(alone(solitude)) }
        if let me = daemon.kiosk, let saved = try? replica?.savedHereOnly(me: me), let check = savedHereOnly(saved) {
            checks.append(check)
        }
        return checks
    }

    func stateDirectory() -> DoctorCheck {
        let name = "state directory"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: config.stateDirectory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            return .failed(
                name,
                "\(config.stateDirectory) does not exist",
                advice: "create it (mode 0700, owned by the user musterd runs as), or fix state_dir"
            )
        }
        guard probe.writable(config.stateDirectory) else {
            return .failed(
                name,
                "\(config.stateDirectory) is not writable by this user",
                advice: "run as the user musterd runs as (e.g. sudo -u muster), or fix the owner"
            )
        }
        if FileManager.default.fileExists(atPath: config.revokedMarkerPath) {
            return .failed(
                name,
                "this kiosk was revoked by the organizer and wiped itself",
                advice: "delete \(config.revokedMarkerPath) and enroll it anew (muster join-request)"
            )
        }
        if let marker = try? String(contentsOfFile: config.stoppedMarkerPath, encoding: .utf8) {
            return .failed(
                name,
                "this kiosk stopped after a revocation and kept all its data: "
                    + TerminalText.sanitize(marker.trimmingCharacters(in: .whitespacesAndNewlines)),
                advice: "export what only it holds if the reason says so (muster export log), then delete "
                    + "\(config.stoppedMarkerPath) and start musterd again"
            )
        }
        let loose = StatePermissions.problems(config)
        guard loose.isEmpty else {
            return .failed(
                name,
                loose.map(\.description).joined(separator: "; ") + "; musterd refuses to start",
                advice: loose.map(\.fix).joined(separator: "; ")
            )
        }
        return .ok(name, "\(config.stateDirectory) is writable")
    }

    /// Below ``Replica/peerReserveBytes`` the daemon stores no more of its peers' deltas (it keeps
    /// the rest for its own check-ins), so this kiosk stops seeing the others' check-ins.
    func diskSpace() -> DoctorCheck {
        let name = "disk space"
        guard let free = probe.freeBytes(config.stateDirectory) else {
            return .warning(name, "cannot read the free space of \(config.stateDirectory)", advice: "check the disk")
        }
        let mebibytes = free >> 20
        guard free >= Replica.peerReserveBytes * 4 else {
            let stopped = free < Replica.peerReserveBytes
            return .warning(
                name,
                stopped
                    ? "\(mebibytes) MiB free: this kiosk keeps it for its own check-ins and stores no more of its peers'"
                    : "\(mebibytes) MiB free: below \(Replica.peerReserveBytes >> 20) MiB it stops storing its peers' check-ins",
                advice: "free space on the disk holding \(config.stateDirectory)"
            )
        }
        return .ok(name, "\(mebibytes) MiB free")
    }

    func enrollment() -> DoctorCheck {
        let name = "enrollment"
        let venue: VenueFile
        do {
            venue = try VenueFile.load(path: config.venue)
        } catch {
            return .failed(
                name,
                "\(error)",
                advice:
                    "enroll this kiosk: muster join-request here, muster enroll on the organizer's machine, muster join BUNDLE here"
            )
        }
        guard let certificate = try? KioskIdentity.loadCertificate(config: config),
            let key = try? KeyFile.read(from: config.kioskKeyPath, passphrase: { nil })
        else {
            return .failed(
                name,
                "no enrollment certificate or kiosk key in \(config.stateDirectory)",
                advice: "run muster join with the bundle the organizer made for this kiosk"
            )
        }
        guard
            let payload = try? EnrollmentCertificate.verify(
                certificate,
                for: AuthorID(key.publicKey),
                policy: venue.policy
            )
        else {
            return .failed(
                name,
                "the enrollment certificate is not the organizer's for this kiosk key",
                advice: "enroll this kiosk again (muster join-request, enroll, join)"
            )
        }
        do {
            try KioskIdentity.checkLocation(config: config, enrollment: payload)
        } catch {
            return .failed(
                name,
                "location '\(config.location)' in the config is not '\(payload.location)' on the certificate",
                advice: error.message
            )
        }
        return .ok(name, "enrolled in '\(venue.name)' as '\(payload.name)', key \(key.publicKey.fingerprint)")
    }

    /// Whether musterd answers `status`, and its peers in session when it does (none when it answers
    /// something else, such as a refusal).
    func daemonCheck() -> (check: DoctorCheck, peers: [PeerDetail]?, solitude: Solitude?, kiosk: AuthorID?) {
        let name = "musterd"
        guard probe.socketAnswers(config.controlSocket),
            let response = try? ControlClient(path: config.controlSocket).send(.status)
        else {
            return (
                .failed(
                    name,
                    "no answer on \(config.controlSocket)",
                    advice: "start it: systemctl start musterd (see journalctl -u musterd for why it stopped)"
                ), nil, nil, nil
            )
        }
        guard case .status(let status) = response else { return (.ok(name, "running as '?'"), [], nil, nil) }
        return (
            .ok(name, "running as '\(status.kioskName)'"), status.peerDetails, status.solitude,
            AuthorID(hex: status.kioskKey)
        )
    }

    /// Check-ins only this kiosk holds for longer than a few anti-entropy rounds: a dead disk now would
    /// lose them. Nil while none are (or only the last seconds' are, on their way to the peers).
    func savedHereOnly(_ saved: SavedHereOnly) -> DoctorCheck? {
        guard saved.checkIns > 0, let oldest = saved.oldestMillis,
            probe.nowMillis() > oldest + Self.savedHereOnlyGraceMillis
        else { return nil }
        return .warning(
            "saved here only",
            saved.line { ClockText.time(millis: Int64(clamping: $0)) },
            advice:
                "bring another kiosk into session with this one (see 'alone' and 'peers') before anything happens to this box"
        )
    }

    /// Two anti-entropy rounds and the throttle of the record: longer than a peer takes to be known
    /// to hold a check-in while in session.
    static let savedHereOnlyGraceMillis: UInt64 = 15_000

    /// A kiosk that works alone still checks people in; staff should know, and find out why.
    func alone(_ solitude: Solitude) -> DoctorCheck {
        .warning(
            "alone",
            solitude.line(time: ClockText.time(millis: Int64(clamping: solitude.sinceMillis))),
            advice: solitude.unheardZone == nil
                ? "check this kiosk's network cable or Wi-Fi, and that the other kiosks are on"
                : "check the other kiosks of this zone: are they on, and on this network?"
        )
    }

    func avahi() -> DoctorCheck {
        let name = "avahi-daemon"
        guard config.discovery else { return .ok(name, "discovery is off in the config (static peers only)") }
        guard probe.socketAnswers(Self.avahiSocket) else {
            return .failed(
                name,
                "not running (no answer on \(Self.avahiSocket))",
                advice: "sudo systemctl enable --now avahi-daemon; kiosks find each other through it"
            )
        }
        return .ok(name, "running")
    }

    func multicast() -> DoctorCheck {
        let name = "multicast"
        let interfaces = probe.interfaces()
        guard !interfaces.isEmpty else {
            return .failed(
                name,
                "no network interface is up with an IPv4 address",
                advice: "plug in the cable or join the venue Wi-Fi"
            )
        }
        let capable = interfaces.filter(\.multicast).map(\.name)
        guard !capable.isEmpty else {
            return .failed(
                name,
                "no interface has multicast enabled (\(interfaces.map(\.name).joined(separator: ", ")))",
                advice: "enable it: ip link set DEV multicast on; on Wi-Fi, ask for client isolation to be off"
            )
        }
        return .ok(name, "enabled on \(capable.joined(separator: ", "))")
    }

    func clock(replica: Replica?) -> DoctorCheck {
        let name = "clock"
        let now = probe.nowMillis()
        guard now >= Self.earliestPlausibleMillis else {
            return .failed(
                name,
                "the clock says \(ClockText.dateTime(millis: Int64(now))): it was never set",
                advice: "set the date (timedatectl set-time 'YYYY-MM-DD HH:MM') before the doors open"
            )
        }
        let newest = (try? replica?.newestHLC())?.map(\.physicalMillis)
        let bound = UInt64(config.clockBoundSeconds) * 1000
        if let newest, newest > now + bound {
            return .warning(
                name,
                "the newest record is stamped \((newest - now) / 60_000) min ahead of this clock",
                advice: "compare the clocks of the kiosks; set this one right (timedatectl)"
            )
        }
        return .ok(name, ClockText.dateTime(millis: Int64(now)))
    }

    func lock(replica: Replica?) -> DoctorCheck {
        let name = "campaign lock"
        guard let replica else {
            return .warning(name, "no replica yet", advice: "start musterd; it receives the lock from its peers")
        }
        guard let lock = try? replica.view({ try $0.lock() }), lock.campaignID != nil else {
            return .warning(
                name,
                "no campaign lock: the kiosk screen waits for the organizer",
                advice: "the organizer runs: muster lock CAMPAIGN --organizer-key KEY"
            )
        }
        return .ok(name, "'\(lock.campaignName ?? lock.campaignID ?? "")', lock v\(lock.version)")
    }

    func peers(_ details: [PeerDetail]) -> DoctorCheck {
        let name = "peers"
        guard !details.isEmpty else {
            return .warning(
                name,
                "no other kiosk in session",
                advice: "fine for a single kiosk; otherwise check the network and avahi on the others"
            )
        }
        let lagging = details.filter { $0.behind > 0 || $0.ahead > 0 }
        if !lagging.isEmpty {
            return .warning(
                name,
                "\(details.count) in session; not yet in sync with \(lagging.map(\.name).joined(separator: ", "))",
                advice: "wait a few seconds; if it stays, see muster status"
            )
        }
        return .ok(name, "\(details.count) in session, all in sync")
    }

    static func systemInterfaces() -> [(name: String, multicast: Bool)] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String: Bool] = [:]
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            let flags = Int32(entry.pointee.ifa_flags)
            if let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            {
                found[String(cString: entry.pointee.ifa_name)] = flags & Int32(IFF_MULTICAST) != 0
            }
            cursor = entry.pointee.ifa_next
        }
        return found.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Prints the findings; returns whether none failed.
    public static func print(_ checks: [DoctorCheck]) -> Bool {
        for check in checks {
            let mark =
                switch check.verdict {
                case .ok: "ok  "
                case .warning: "WARN"
                case .failed: "FAIL"
                }
            Output.data("\(mark)  \(check.name): \(check.detail)")
            if !check.advice.isEmpty { Output.data("      → \(check.advice)") }
        }
        return !checks.contains { $0.verdict == .failed }
    }
}
