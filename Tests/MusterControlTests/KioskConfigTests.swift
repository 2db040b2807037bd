import Foundation
import MusterCore
import MusterTestSupport
import Testing

@testable import MusterControl

private func parseError(_ text: String, file: String = "test.toml") -> ConfigError? {
    do {
        _ = try KioskConfig.parse(text, file: file)
        return nil
    } catch {
        return error
    }
}

@Suite("KioskConfig")
struct KioskConfigTests {
    @Test func parsesEveryContractKey() throws {
        let config = try KioskConfig.parse(
            """
            name = "Hall A"
            location = "Main entrance"
            state_dir = "/srv/muster/state"
            control_socket = "/run/muster-a/control.sock"
            venue = "/etc/muster/venue-a.toml"
            listen = "10.0.0.5:7421"
            static_peers = ["10.0.0.6:7420", "[fd00::7]:7420"]
            clock_bound_seconds = 45
            log_level = "debug"
            ack_copies = 3
            """,
            file: "musterd.toml"
        )
        #expect(config.name == "Hall A")
        #expect(config.location == "Main entrance")
        #expect(config.stateDirectory == "/srv/muster/state")
        #expect(config.controlSocket == "/run/muster-a/control.sock")
        #expect(config.venue == "/etc/muster/venue-a.toml")
        #expect(config.listen == HostPort(host: "10.0.0.5", port: 7421))
        #expect(config.staticPeers == [HostPort(host: "10.0.0.6", port: 7420), HostPort(host: "fd00::7", port: 7420)])
        #expect(config.clockBoundSeconds == 45)
        #expect(config.logLevel == "debug")
        #expect(config.ackCopies == 3)
        #expect(config.replicaPath == "/srv/muster/state/replica.sqlite")
        #expect(config.kioskKeyPath == "/srv/muster/state/kiosk.key")
    }

    @Test func emptyFileGivesDefaults() throws {
        let config = try KioskConfig.parse("", file: "empty.toml")
        #expect(config == KioskConfig())
        #expect(config.name == "kiosk")
        #expect(config.stateDirectory == "/var/lib/muster")
        #expect(config.controlSocket == "/run/muster/control.sock")
        #expect(config.venue == "/etc/muster/venue.toml")
        #expect(config.listen == HostPort(host: "0.0.0.0", port: 7420))
        #expect(config.staticPeers.isEmpty)
        #expect(config.clockBoundSeconds == 300)
        #expect(config.logLevel == "info")
        #expect(config.ackCopies == 2, "a check-in waits for one peer by default")
    }

    @Test func unknownKeyIsRejectedByName() throws {
        let error = try #require(
            parseError("name = \"A\"\nstatic_peer = [\"a:1\"]\n", file: "/etc/muster/musterd.toml")
        )
        #expect(error.message.contains("unknown key 'static_peer'"))
        #expect(error.message.contains("static_peers"), "the message lists the known keys")
        #expect(error.file == "/etc/muster/musterd.toml")
        #expect(error.description.hasPrefix("/etc/muster/musterd.toml: "))
    }

    @Test func unknownTableIsRejected() throws {
        let error = try #require(parseError("[sync]\nport = 1\n"))
        #expect(error.message.contains("'sync'"))
    }

    @Test(arguments: [
        ("name = 5", "'name' must be a string"),
        ("location = true", "'location' must be a string"),
        ("state_dir = [\"a\"]", "'state_dir' must be a string"),
        ("control_socket = 1.5", "'control_socket' must be a string"),
        ("venue = {}", "'venue' must be a string"),
        ("log_level = 3", "'log_level' must be a string"),
        ("listen = 7420", "'listen' must be a string"),
        ("static_peers = \"10.0.0.6:7420\"", "'static_peers' must be an array"),
        ("static_peers = [7420]", "'static_peers' entries"),
        ("static_peers = [\"nohostport\"]", "'static_peers' entries"),
        ("clock_bound_seconds = \"300\"", "'clock_bound_seconds' must be a positive integer"),
        ("clock_bound_seconds = 0", "'clock_bound_seconds' must be a positive integer"),
        ("clock_bound_seconds = -5", "'clock_bound_seconds' must be a positive integer"),
        ("clock_bound_seconds = 2.5", "'clock_bound_seconds' must be a positive integer"),
        ("ack_copies = 0", "'ack_copies' must be an integer from 1 to 16"),
        ("ack_copies = 17", "'ack_copies' must be an integer from 1 to 16"),
        ("ack_copies = \"2\"", "'ack_copies' must be an integer from 1 to 16"),
    ])
    func wrongTypesAreRejected(line: String, expected: String) throws {
        let error = try #require(parseError(line))
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test(arguments: ["7420", "0.0.0.0", "0.0.0.0:", ":7420", "0.0.0.0:99999", "0.0.0.0:http", "::1:7420", "[::1]7420"])
    func badListenIsRejected(value: String) throws {
        let error = try #require(parseError("listen = \"\(value)\""))
        #expect(error.message.contains("'listen' must be host:port"))
        #expect(error.message.contains(value))
    }

    @Test func invalidTOMLNamesTheLine() throws {
        let error = try #require(parseError("name = \"A\"\nlocation = \n", file: "x.toml"))
        #expect(error.message.contains("invalid TOML"))
        #expect(error.message.contains("line 2"), "\(error.message)")
    }

    @Test func loadResolvesRelativePathsAgainstTheConfigDirectory() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("etc"), withIntermediateDirectories: true)
        let path = dir.file("etc/musterd.toml")
        try """
        name = "Hall B"
        state_dir = "state"
        control_socket = "../run/control.sock"
        venue = "/absolute/venue.toml"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try KioskConfig.load(path: path)
        let base = (dir.file("etc") as NSString).standardizingPath
        #expect(config.name == "Hall B")
        #expect(config.stateDirectory == (base as NSString).appendingPathComponent("state"))
        #expect(
            config.controlSocket
                == ((dir.path as NSString).standardizingPath as NSString).appendingPathComponent("run/control.sock")
        )
        #expect(config.venue == "/absolute/venue.toml")
        #expect(config.replicaPath.hasPrefix("/"))
    }

    /// `musterd.toml.d/*.toml`: read after the file in name order, each key replacing the one before,
    /// tables key by key; relative paths still against the file's directory; a bad drop-in is named.
    @Test func dropInsOverrideTheFileKeyByKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("musterd.toml")
        try """
        name = "Hall A"
        location = "Main entrance"
        state_dir = "state"
        printer = "badges"
        [badge]
        size = "a6"
        [screen]
        language = "de"
        bell = true
        """.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path + ".d", withIntermediateDirectories: true)
        try "name = \"Desk B\"\n[badge]\nfallback = \"Hall A\"\n[screen]\nbell = false\n"
            .write(toFile: path + ".d/50-kiosk.toml", atomically: true, encoding: .utf8)
        try "location = \"East door\"\nname = \"Desk C\"\n"
            .write(toFile: path + ".d/90-move.toml", atomically: true, encoding: .utf8)
        try "name = 1\n".write(toFile: path + ".d/50-kiosk.toml.dpkg-dist", atomically: true, encoding: .utf8)

        let config = try KioskConfig.load(path: path)
        #expect(config.name == "Desk C" && config.location == "East door", "the later drop-in wins")
        #expect(config.badge.printer == "badges" && config.badge.size == "a6" && config.badge.fallback == "Hall A")
        #expect(config.screen.language == .german && config.screen.bell == false)
        #expect(
            config.stateDirectory
                == ((dir.path as NSString).standardizingPath as NSString).appendingPathComponent("state")
        )

        try "name = 7\n".write(toFile: path + ".d/95-bad.toml", atomically: true, encoding: .utf8)
        do {
            _ = try KioskConfig.load(path: path)
            Issue.record("a drop-in with a wrong type was accepted")
        } catch {
            #expect(error.file == path + ".d/95-bad.toml", "the error names the drop-in: \(error)")
        }
    }

    @Test func loadMissingFileNamesIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("nope.toml")
        do {
            _ = try KioskConfig.load(path: path)
            Issue.record("loading a missing file succeeded")
        } catch {
            #expect(error.file == path)
            #expect(error.message.contains("cannot read the config file"))
        }
    }

    @Test func resolvePathPrecedence() {
        #expect(KioskConfig.resolvePath("/a.toml", environment: ["MUSTER_CONFIG": "/b.toml"]) == "/a.toml")
        #expect(KioskConfig.resolvePath(nil, environment: ["MUSTER_CONFIG": "/b.toml"]) == "/b.toml")
        #expect(KioskConfig.resolvePath("", environment: ["MUSTER_CONFIG": "/b.toml"]) == "/b.toml")
        #expect(KioskConfig.resolvePath(nil, environment: [:]) == KioskConfig.defaultPath)
        #expect(KioskConfig.resolvePath(nil, environment: ["MUSTER_CONFIG": ""]) == KioskConfig.defaultPath)
        #expect(KioskConfig.defaultPath == "/etc/muster/musterd.toml")
    }

    /// `config/musterd.toml` ships with the package and documents every key; it must parse.
    @Test func shippedConfigParses() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("config/musterd.toml").path
        try #require(FileManager.default.fileExists(atPath: path), "config/musterd.toml is missing")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let config = try KioskConfig.parse(text, file: path)
        let loaded = try KioskConfig.load(path: path)
        #expect(loaded.name == config.name)
        #expect(!config.name.isEmpty)
        #expect(config.clockBoundSeconds > 0)
        // Every known key is documented in the shipped file.
        for key in KioskConfig.knownKeys {
            #expect(
                text.contains("\(key) =") || text.contains("[\(key)]"),
                "config/musterd.toml does not document '\(key)'"
            )
        }
        for key in KioskConfig.screenKeys {
            #expect(text.contains("# \(key) ="), "config/musterd.toml does not document 'screen.\(key)'")
        }
    }

    /// `log_level` feeds `Logger.Level(rawValue:)`; a typo should be caught when the file is read,
    /// not silently turned into `info`.
    @Test func misspelledLogLevelIsRejected() {
        #expect(parseError("log_level = \"warn\"") != nil)
    }
}
