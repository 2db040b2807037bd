import MusterCore

/// The store's clock as an input of the judge: a stamp more than `boundMillis` ahead of `nowMillis` is
/// stored with a warning and does not move the local clock.
public struct IngestClock: Sendable, Equatable {
    public let nowMillis: UInt64
    public let boundMillis: UInt64

    public init(nowMillis: UInt64, boundMillis: UInt64) {
        self.nowMillis = nowMillis
        self.boundMillis = boundMillis
    }

    /// How far `hlc` lies ahead of now, when beyond the bound.
    func ahead(_ hlc: HLC) -> UInt64? {
        let stamp = hlc.physicalMillis
        return stamp > nowMillis &+ boundMillis ? stamp - nowMillis : nil
    }
}
