import Foundation

/// What end-to-end tests build kiosks from: the two-kiosk venue, a changed config file.
extension KioskHarness {
    /// Appends `text` (TOML) to this kiosk's config file, before it starts.
    func appendToConfig(_ text: String) throws {
        let config = try String(contentsOfFile: configPath, encoding: .utf8)
        try (config + text).write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// A started kiosk of a new venue, with the harness's defaults.
    static func started() throws -> KioskHarness {
        let kiosk = try KioskHarness()
        try kiosk.start()
        return kiosk
    }

    /// A started kiosk of a new venue listening on a free loopback port: the kiosk and its port.
    static func startedOnLoopback(name: String) throws -> (KioskHarness, Int) {
        let port = try freeLoopbackPort()
        let kiosk = try KioskHarness(name: name, listen: "127.0.0.1:\(port)")
        try kiosk.start()
        return (kiosk, port)
    }

    /// Two kiosks of one venue, "k1" and "k2", each listening on a free loopback port, k2 dialing k1;
    /// not yet started.
    static func dialingPair(
        locations: (String, String) = ("Main entrance", "Main entrance")
    ) throws -> (k1: KioskHarness, k2: KioskHarness, ports: (Int, Int)) {
        let ports = (try freeLoopbackPort(), try freeLoopbackPort())
        let k1 = try KioskHarness(name: "k1", location: locations.0, listen: "127.0.0.1:\(ports.0)")
        let k2 = try KioskHarness(
            name: "k2",
            location: locations.1,
            venueOf: k1,
            listen: "127.0.0.1:\(ports.1)",
            staticPeers: ["127.0.0.1:\(ports.0)"]
        )
        return (k1, k2, ports)
    }
}
