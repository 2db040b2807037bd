import Foundation
import MusterCore
import TOMLKit

/// The daemon's configuration (`config/musterd.toml` documents every key).
///
/// `name`, `location`, `state_dir`, `control_socket`, `venue`, `listen` and `static_peers` are a
/// contract that tools outside the project rely on; every key can also be given as a flag.
public struct KioskConfig: Sendable, Equatable {
    public var name: String = "kiosk"
    public var location: String = ""
    public var stateDirectory: String = "/var/lib/muster"
    public var controlSocket: String = "/run/muster/control.sock"
    public var venue: String = "/etc/muster/venue.toml"
    public var listen: HostPort = HostPort(host: "0.0.0.0", port: 7420)
    public var staticPeers: [HostPort] = []
    /// Announce and find kiosks through avahi-daemon (mDNS). Off where multicast is not wanted.
    public var discovery: Bool = true
    /// Deltas stamped further ahead than this never move the local clock.
    public var clockBoundSeconds: Int = 300
    /// Up to this many kiosks every kiosk keeps a session with every other; beyond it, a bounded
    /// random overlay (HyParView sessions, Plumtree broadcast). Nil: ``FullMesh/defaultThreshold``.
    public var fullMeshThreshold: Int?
    public var logLevel: String = "info"
    /// How many kiosks must hold a local check-in before it is acknowledged: this one and
    /// `ackCopies - 1` peers in session (fewer when fewer are there; none when it works alone). 1: this
    /// kiosk's disk alone. Waited for at most ``ackWait``.
    public var ackCopies: Int = 2
    /// The longest a check-in waits for its copies before it is acknowledged as saved here only.
    public static let ackWait: Duration = .seconds(1)
    /// The badge printer and layout (issue 15); no printer by default.
    public var badge = BadgeConfig()
    /// The public kiosk screen's language, timeouts and accessibility options (`[screen]`).
    public var screen = ScreenOptions()

    public init() {}

    /// Where the replica lives inside the state directory.
    public var replicaPath: String { (stateDirectory as NSString).appendingPathComponent("replica.sqlite") }
    /// The kiosk's own signing key, made on first start.
    public var kioskKeyPath: String { (stateDirectory as NSString).appendingPathComponent("kiosk.key") }
    /// The organizer's certificate enrolling this kiosk, written by `muster join`.
    public var enrollmentPath: String { (stateDirectory as NSString).appendingPathComponent("enrollment.cert") }
    /// Left behind when the organizer revoked this kiosk and it wiped its data.
    public var revokedMarkerPath: String { (stateDirectory as NSString).appendingPathComponent("REVOKED") }
    /// Left behind when a revocation stopped this kiosk and it kept its data (``RevocationVerdict``):
    /// the daemon does not start again until a person deletes it.
    public var stoppedMarkerPath: String { (stateDirectory as NSString).appendingPathComponent("STOPPED") }

    /// The default config path when neither `--config` nor `MUSTER_CONFIG` is given.
    public static let defaultPath = "/etc/muster/musterd.toml"

    /// `--config`, else `MUSTER_CONFIG`, else the default path.
    public static func resolvePath(_ explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let env = environment["MUSTER_CONFIG"], !env.isEmpty { return env }
        return defaultPath
    }

    /// The file at `path`, then each `*.toml` of the directory `path.d` in name order (drop-ins:
    /// `/etc/muster/musterd.toml.d/kiosk.toml`), each key a drop-in sets replacing the one before.
    ///
    /// Why drop-ins: `musterd.toml` is the package's conffile, and every kiosk's was edited at install
    /// (its name and location); dpkg then asks, at each upgrade that ships a changed one, what to do
    /// with it, and a headless upgrade fails at the question. With this kiosk's keys in a drop-in,
    /// the conffile stays the package's and an upgrade asks nothing.
    public static func load(path: String) throws(ConfigError) -> KioskConfig {
        var config = try parse(try read(path), file: path)
        for dropIn in dropIns(of: path) {
            config = try parse(try read(dropIn), file: dropIn, over: config)
        }
        // Relative paths in the file are relative to the file, so a config next to its venue works anywhere.
        let absolutePath = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let base = ((absolutePath as NSString).deletingLastPathComponent as NSString)
        config.stateDirectory = Self.absolute(config.stateDirectory, base: base)
        config.controlSocket = Self.absolute(config.controlSocket, base: base)
        config.venue = Self.absolute(config.venue, base: base)
        return config
    }

    /// The drop-in files of the config at `path`: `path.d/*.toml`, in name order (none without the
    /// directory).
    public static func dropIns(of path: String) -> [String] {
        let directory = path + ".d"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }.sorted().map { directory + "/" + $0 }
    }

    private static func read(_ path: String) throws(ConfigError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, "cannot read the config file (\(error.localizedDescription))")
        }
    }

    static func absolute(_ path: String, base: NSString) -> String {
        path.hasPrefix("/") ? path : (base.appendingPathComponent(path) as NSString).standardizingPath
    }

    /// The levels swift-log knows, as written in the config.
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    static let knownKeys: Set<String> = Set([
        "name", "location", "state_dir", "control_socket", "venue", "listen", "static_peers",
        "clock_bound_seconds", "log_level", "discovery", "full_mesh_threshold", "screen", "ack_copies",
    ]).union(BadgeConfig.keys)

    /// The keys `text` sets, over `base` (the defaults, or the files read before it).
    public static func parse(
        _ text: String,
        file: String,
        over base: KioskConfig = KioskConfig()
    ) throws(ConfigError) -> KioskConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(file: file, "line \(error.source.begin.line): invalid TOML: \(error.description)")
        } catch {
            throw ConfigError(file: file, "invalid TOML: \(error)")
        }
        var config = base
        for key in table.keys where !knownKeys.contains(key) {
            throw ConfigError(
                file: file,
                "unknown key '\(key)' (known keys: \(knownKeys.sorted().joined(separator: ", ")))"
            )
        }
        func string(_ key: String) throws(ConfigError) -> String? { try Self.string(key, in: table, file: file) }
        if let value = try string("name") { config.name = value }
        if let value = try string("location") { config.location = value }
        if let value = try string("state_dir") { config.stateDirectory = value }
        if let value = try string("control_socket") { config.controlSocket = value }
        if let value = try string("venue") { config.venue = value }
        if let value = try string("log_level") {
            guard Self.logLevels.contains(value) else {
                throw ConfigError(
                    file: file,
                    "'log_level' must be one of \(Self.logLevels.joined(separator: ", ")), got '\(value)'"
                )
            }
            config.logLevel = value
        }
        try parseNetwork(table, file: file, into: &config)
        config.badge = try BadgeConfig.parse(table, file: file, over: config.badge)
        if let value = table["screen"] { config.screen = try parseScreen(value, file: file, over: config.screen) }
        return config
    }

    /// The keys about the network: where to listen, whom to dial, discovery, clocks and the mesh.
    private static func parseNetwork(
        _ table: TOMLTable,
        file: String,
        into config: inout KioskConfig
    ) throws(ConfigError) {
        if let value = try Self.string("listen", in: table, file: file) {
            guard let hostPort = HostPort(value) else {
                throw ConfigError(file: file, "'listen' must be host:port, got '\(value)'")
            }
            config.listen = hostPort
        }
        if let value = table["static_peers"] {
            guard let array = value.array else { throw ConfigError(file: file, "'static_peers' must be an array") }
            config.staticPeers = []
            for element in array {
                guard let text = element.string, let hostPort = HostPort(text) else {
                    throw ConfigError(file: file, "'static_peers' entries must be \"host:port\" strings")
                }
                config.staticPeers.append(hostPort)
            }
        }
        if let value = table["discovery"] {
            guard let flag = value.bool else { throw ConfigError(file: file, "'discovery' must be true or false") }
            config.discovery = flag
        }
        if let value = table["clock_bound_seconds"] {
            guard let seconds = value.int, seconds > 0 else {
                throw ConfigError(file: file, "'clock_bound_seconds' must be a positive integer")
            }
            config.clockBoundSeconds = seconds
        }
        if let value = table["ack_copies"] {
            guard let copies = value.int, (1...Self.maxAckCopies).contains(copies) else {
                throw ConfigError(file: file, "'ack_copies' must be an integer from 1 to \(Self.maxAckCopies)")
            }
            config.ackCopies = copies
        }
        if let value = table["full_mesh_threshold"] {
            guard let kiosks = value.int else {
                throw ConfigError(file: file, "'full_mesh_threshold' must be an integer")
            }
            if let problem = FullMesh.problem(with: kiosks) {
                throw ConfigError(file: file, "'full_mesh_threshold' \(problem)")
            }
            config.fullMeshThreshold = kiosks
        }
    }

    /// More copies than this would wait on kiosks a full mesh need not have.
    public static let maxAckCopies = 16

    private static func string(_ key: String, in table: TOMLTable, file: String) throws(ConfigError) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else { throw ConfigError(file: file, "'\(key)' must be a string") }
        return string
    }
}
