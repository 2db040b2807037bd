import Foundation

/// The network round trip between two lab kiosks: ICMP echo with `ping` from kiosk 1 to kiosk 2,
/// inside the lab's namespaces (veth, bridge, veth), the floor under any propagation figure.
enum PingProbe {
    static func run(lab: Lab, from: Int, to: Int, count: Int) throws -> LatencySample? {
        guard
            let ping = ["/usr/bin/ping", "/bin/ping"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            return nil
        }
        let output = try lab.exec(from, [ping, "-n", "-c", "\(count)", "-i", "0.02", "10.77.0.\(to)"])
        var sample = LatencySample()
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "time=") else { continue }
            let number = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            if let millis = Double(number) { sample.record(nanoseconds: UInt64(millis * 1e6)) }
        }
        return sample.millis.isEmpty ? nil : sample
    }
}
