import ArgumentParser
import Foundation
import Logging
import MusterControl
import MusterCore
import MusterDaemon

/// `musterd`: the kiosk daemon. Argument parsing only; everything else lives in MusterDaemon.
@main
struct Musterd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "musterd",
        abstract: "The Muster kiosk daemon: owns the replica and the control socket."
    )

    @Option(name: .long, help: "Config file (TOML). Defaults to $MUSTER_CONFIG, then /etc/muster/musterd.toml.")
    var config: String?
    @Option(name: .long, help: "Kiosk name shown on screens and in the log export (config: name).")
    var name: String?
    @Option(name: .long, help: "Where the kiosk stands, e.g. 'Hall A' (config: location).")
    var location: String?
    @Option(name: .customLong("state-dir"), help: "Directory for the replica and the kiosk key (config: state_dir).")
    var stateDir: String?
    @Option(name: .customLong("control-socket"), help: "Unix control socket path (config: control_socket).")
    var controlSocket: String?
    @Option(name: .long, help: "Venue file (config: venue).")
    var venue: String?
    @Option(name: .long, help: "host:port to listen on for peers (config: listen).")
    var listen: String?
    @Option(name: .customLong("static-peer"), help: "host:port of a peer; repeatable (config: static_peers).")
    var staticPeers: [String] = []
    @Flag(inversion: .prefixedNo, help: "Announce and find kiosks through avahi-daemon (config: discovery).")
    var discovery: Bool?
    @Option(
        name: .customLong("clock-bound-seconds"),
        help: "How far ahead a delta's time may be and still move the clock (config: clock_bound_seconds)."
    )
    var clockBoundSeconds: Int?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error (config: log_level).")
    var logLevel: String?
    @Option(name: .long, help: "CUPS queue badges print on; \"\" prints none (config: printer).")
    var printer: String?
    @Option(name: .customLong("cups-server"), help: "cupsd socket path or host[:port] (config: cups_server).")
    var cupsServer: String?
    @Option(name: .customLong("clock-offset-ms"), help: "Testing: add this offset to the system clock.")
    var clockOffsetMillis: Int64 = 0

    func run() async throws {
        let path = KioskConfig.resolvePath(config, environment: ProcessInfo.processInfo.environment)
        var settings =
            (config == nil && !FileManager.default.fileExists(atPath: path))
            ? KioskConfig() : try KioskConfig.load(path: path)
        if let name { settings.name = name }
        if let location { settings.location = location }
        if let stateDir { settings.stateDirectory = stateDir }
        if let controlSocket { settings.controlSocket = controlSocket }
        if let venue { settings.venue = venue }
        if let listen { settings.listen = try Self.hostPort(listen, option: "--listen") }
        if !staticPeers.isEmpty {
            settings.staticPeers = try staticPeers.map { try Self.hostPort($0, option: "--static-peer") }
        }
        if let discovery { settings.discovery = discovery }
        if let printer { settings.badge.printer = printer.isEmpty ? nil : printer }
        if let cupsServer { settings.badge.cupsServer = cupsServer.isEmpty ? nil : cupsServer }
        if let clockBoundSeconds {
            guard clockBoundSeconds > 0 else { throw ValidationError("--clock-bound-seconds must be positive") }
            settings.clockBoundSeconds = clockBoundSeconds
        }
        if let logLevel {
            guard KioskConfig.logLevels.contains(logLevel) else {
                throw ValidationError("--log-level must be one of \(KioskConfig.logLevels.joined(separator: ", "))")
            }
            settings.logLevel = logLevel
        }
        let level = Logger.Level(rawValue: settings.logLevel) ?? .info
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, level: level) }
        let logger = Logger(label: "musterd")
        do {
            try await Daemon(config: settings, logger: logger, clockOffsetMillis: clockOffsetMillis).run()
        } catch let error as DaemonError {
            logger.critical("\(error.message)")
            // 78 (EX_CONFIG): a person must act (enroll, re-enroll a revoked or moved box, fix a
            // mode); systemd's RestartPreventExitStatus keeps it from restarting in a loop.
            throw ExitCode(error.code.needsPerson ? 78 : 1)
        }
    }

    /// `text` as host:port, or a usage error naming the option it came from.
    static func hostPort(_ text: String, option: String) throws(ValidationError) -> HostPort {
        guard let hostPort = HostPort(text) else { throw ValidationError("\(option) must be host:port") }
        return hostPort
    }
}
