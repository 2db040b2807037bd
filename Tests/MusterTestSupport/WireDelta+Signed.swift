public import MusterControl
public import MusterCore

extension WireDelta {
    /// `delta` as the control protocol carries it (hex envelope and signature), as `muster` sends it.
    public init(_ delta: SignedDelta) {
        self.init(envelope: Hex.encode(delta.envelope), signature: Hex.encode(delta.signature))
    }
}
