/// The two-kiosk venue most end-to-end tests start from.
extension KioskHarness {
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
