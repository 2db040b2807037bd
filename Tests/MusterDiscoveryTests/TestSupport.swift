@testable import MusterDiscovery

/// Shared values for the discovery tests.
enum Fixture {
    static let venue = "00112233445566778899aabbccddeeff"
    static let otherVenue = "ffeeddccbbaa99887766554433221100"
    static let ownFingerprint = "3f2a-91c0-5b7e-0d14"

    static func txt(v: String = "1", venue: String = Fixture.venue, fp: String) -> [[UInt8]] {
        ["v=\(v)", "venue=\(venue)", "fp=\(fp)"].map { Array($0.utf8) }
    }

    static func instance(_ name: String, interface: Int32 = 2, protocol proto: Int32 = 0) -> ServiceInstance {
        ServiceInstance(interface: interface, protocol: proto, name: name, type: "_muster._tcp", domain: "local")
    }

    static func resolved(
        _ instance: ServiceInstance,
        host: String = "10.77.0.2",
        isIPv4: Bool = true,
        port: Int = 7420,
        txt: [[UInt8]]? = nil,
        fp: String = "aaaa-bbbb-cccc-dddd"
    ) -> ResolvedService {
        ResolvedService(instance: instance, host: host, isIPv4: isIPv4, port: port, txt: txt ?? Fixture.txt(fp: fp))
    }

    static func classifier() -> PeerClassifier {
        PeerClassifier(record: try! MusterTXTRecord(protocolVersion: 1, venueID: venue, fingerprint: ownFingerprint))
    }
}
