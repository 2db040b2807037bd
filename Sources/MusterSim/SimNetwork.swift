/// The simulated LAN: per-link latency, partitions, and the in-order arrival of frames per direction.
///
/// A link's latency is the sum of its two ends' (each 100–500 µs, a slow kiosk 2 ms more), so the
/// whole mesh needs only one figure per kiosk. Frames cross at 100 MB/s after the latency.
struct SimNetwork {
    private let kioskCount: Int
    private var halfLatency: [VirtualTime]
    /// Which side of the partition each kiosk is on, while one is in force.
    private(set) var side: [Bool]?
    /// The latest arrival per direction (a * count + b), so frames of one session stay in order.
    private var lastArrival: [Int: VirtualTime] = [:]
    private(set) var nextSession: UInt64 = 1

    static let bytesPerNanosecond = 0.1

    init(kioskCount: Int, slow: [Bool], random: inout SimRandom) {
        self.kioskCount = kioskCount
        halfLatency = (0..<kioskCount).map { index in
            random.int64(in: 50 * VirtualTime.microsecond...250 * VirtualTime.microsecond)
                + (slow[index] ? VirtualTime.millisecond : 0)
        }
    }

    func latency(_ a: Int, _ b: Int) -> VirtualTime { halfLatency[a] + halfLatency[b] }

    func reachable(_ a: Int, _ b: Int) -> Bool {
        guard let side else { return true }
        return side[a] == side[b]
    }

    mutating func cut(_ members: [Int]) {
        var sides = [Bool](repeating: false, count: kioskCount)
        for member in members { sides[member] = true }
        side = sides
    }

    mutating func heal() { side = nil }

    mutating func newSession() -> UInt64 {
        defer { nextSession += 1 }
        return nextSession
    }

    /// When a frame of `bytes` sent at `time` from `a` arrives at `b`, in order with the ones before it.
    mutating func arrival(from a: Int, to b: Int, at time: VirtualTime, bytes: Int) -> VirtualTime {
        let transmit = VirtualTime(Double(bytes) / Self.bytesPerNanosecond)
        let key = a * kioskCount + b
        let arrival = max(time + latency(a, b), lastArrival[key] ?? 0) + transmit
        lastArrival[key] = arrival
        return arrival
    }
}
