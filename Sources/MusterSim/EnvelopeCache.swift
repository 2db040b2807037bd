public import MusterCore
public import MusterRules
import Synchronization

/// What each envelope decodes to, shared by the memory stores of one run, as ``SignatureCache``
/// shares signatures: every kiosk of a venue decodes the same envelopes, so each is decoded once
/// per run rather than once per kiosk (decoding was 4 % of a 50-kiosk simulation; a lookup costs
/// about a third of a decode). Keyed by the exact envelope bytes, so every answer is the decoder's;
/// an envelope that does not decode is refused afresh each time. Hashes are not kept: a lookup
/// costs what BLAKE2b of an envelope does.
public final class EnvelopeCache: Sendable {
    private let decoded = Mutex<[BytesKey: Delta]>([:])

    public init() {}

    /// `delta`'s envelope decoded, or its refusal as malformed (``RunReader/decodeAfresh(_:)``).
    func decode(_ delta: SignedDelta) throws(DeltaRejection) -> Delta {
        let key = BytesKey(bytes: delta.envelope)
        if let known = decoded.withLock({ $0[key] }) { return known }
        let fresh = try MemoryRunReader.decodeAfresh(delta)
        decoded.withLock { $0[key] = fresh }
        return fresh
    }
}
