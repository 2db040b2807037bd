/// The registry of targets, in the order a run fuzzes them.
enum FuzzTargets {
    static let names = ["frame-decoder", "handshake", "delta", "csv", "control"]

    static func make() throws -> [any FuzzTarget] {
        [FrameDecoderTarget(), try HandshakeTarget(), DeltaTarget(), CSVTarget(), ControlTarget()]
    }
}
