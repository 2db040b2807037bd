import Foundation
import MusterControl
public import MusterCore
public import MusterCrypto
import MusterStore

/// Builds, signs and submits the organizer's deltas.
///
/// The organizer key stays on the organizer's machine: `muster` asks the daemon for the
/// organizer's head, extends the chain locally, signs, and submits the signed bytes in chunks,
/// each applied all-or-nothing by the daemon. If another organizer session moved the head in the
/// meantime, the daemon refuses the chunk as stale and it is rebuilt on the new head.
public struct OrganizerSubmitter {
    let client: ClientContext
    let keyPair: SigningKeyPair
    public var chunkSize = 500

    public init(client: ClientContext, keyPair: SigningKeyPair) throws(ClientError) {
        guard AuthorID(keyPair.publicKey) == client.venue.organizer else {
            throw ClientError(.config, "this key is not the organizer key of venue \(client.venue.venue)")
        }
        self.client = client
        self.keyPair = keyPair
    }

    /// Submits `bodies` in order; returns how many deltas the daemon applied.
    @discardableResult
    public func submit(_ bodies: [DeltaBody], progress: (Int, Int) -> Void = { _, _ in }) throws(ClientError) -> Int {
        var clock = HybridClock()
        var applied = 0
        var offset = 0
        var attempts = 0
        while offset < bodies.count {
            var signer = DeltaSigner(venue: client.venue.venue, keyPair: keyPair, head: try currentHead())
            let end = min(offset + chunkSize, bodies.count)
            let wire = bodies[offset..<end].map { body -> WireDelta in
                let signed = signer.sign(body, hlc: clock.tick(nowMillis: Self.nowMillis()))
                return WireDelta(envelope: Hex.encode(signed.envelope), signature: Hex.encode(signed.signature))
            }
            var request = ControlRequest(op: .submit)
            request.deltas = wire
            let response = try client.exchange(request)
            if response.outcome == .error {
                let message = response.message ?? "musterd refused the organizer's deltas"
                attempts += 1
                if message.hasPrefix("stale organizer head"), attempts < 5 { continue }
                throw ClientError(.failed, message)
            }
            attempts = 0
            applied += response.applied ?? 0
            offset = end
            progress(offset, bodies.count)
        }
        return applied
    }

    private func currentHead() throws(ClientError) -> AuthorHead {
        var request = ControlRequest(op: .head)
        request.author = keyPair.publicKey.hex
        let response = try client.send(request)
        guard let seq = response.headSeq, let hash = response.headHash.flatMap(Hex.decode), hash.count == 32 else {
            throw ClientError(.protocolError, "musterd did not return the organizer's head")
        }
        return AuthorHead(author: AuthorID(keyPair.publicKey), seq: seq, hash: hash)
    }

    static func nowMillis() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
