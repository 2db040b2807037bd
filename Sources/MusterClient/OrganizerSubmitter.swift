import Foundation
import MusterControl
public import MusterCore
public import MusterCrypto
import MusterRules
import MusterTime

/// Builds, signs and submits the organizer's deltas.
///
/// The organizer key stays on the organizer's machine: `muster` asks the daemon for the organizer's head, extends
/// the chain locally, signs every delta, and only then submits the signed bytes. A submission is all or nothing:
/// one larger than ``chunkSize`` is staged on the control connection in chunks and applied by its last request in
/// one transaction (see `SubmissionStage` in the daemon), so an import becomes visible whole or not at all. If
/// another organizer session moved the head in the meantime, the daemon refuses the submission as stale and it is
/// signed again on the new head.
public struct OrganizerSubmitter {
    let client: ClientContext
    let keyPair: SigningKeyPair
    /// An organizer device's certificate, sent with every request so the daemon knows the key.
    let certificate: SignedDelta?
    /// Where the key's chain ends, as far as the key knows: no signing on an older head.
    let record: SignedHeadRecord?
    /// Deltas per control request; each request stays far below the daemon's 8 MiB request limit.
    public var chunkSize = 500

    public init(client: ClientContext, keyPair: SigningKeyPair) throws(ClientError) {
        try self.init(client: client, signer: OrganizerSigner(keyPair: keyPair))
    }

    /// With the organizer key, or an organizer device's key and its certificate.
    public init(client: ClientContext, signer: OrganizerSigner) throws(ClientError) {
        let author = AuthorID(signer.keyPair.publicKey)
        if let certificate = signer.certificate {
            let policy = VenuePolicy(venue: client.venue.venue, organizer: client.venue.organizer)
            guard let payload = try? EnrollmentCertificate.verify(certificate, for: author, policy: policy),
                payload.role == .organizerDevice
            else {
                throw ClientError(
                    .config,
                    "this key's certificate is not an organizer device's of venue \(client.venue.venue)"
                )
            }
        } else {
            guard author == client.venue.organizer else {
                throw ClientError(
                    .config,
                    "this key is not the organizer key of venue \(client.venue.venue), nor an organizer device's key "
                        + "with its certificate beside it"
                )
            }
        }
        self.client = client
        self.keyPair = signer.keyPair
        self.certificate = signer.certificate
        self.record = signer.record
    }

    /// Submits `bodies` in order, all or nothing; returns how many deltas the daemon applied.
    ///
    /// `progress` is told how many deltas the daemon holds (staged or applied) after each request.
    @discardableResult
    public func submit(_ bodies: [DeltaBody], progress: (Int, Int) -> Void = { _, _ in }) throws(ClientError) -> Int {
        guard !bodies.isEmpty else { return 0 }
        var attempts = 0
        while true {
            let head = try currentHead()
            try record?.check(offered: head)
            let (signed, last) = try sign(bodies, after: head)
            attempts += 1
            switch try send(signed, progress: progress) {
            case .applied(let count):
                do {
                    try record?.save(last)
                } catch {
                    throw ClientError(.failed, "the deltas were applied, but \(error.message)", cause: error)
                }
                return count
            case .stale(let message):
                if attempts >= 5 { throw ClientError(.failed, message) }
            }
        }
    }

    /// What one attempt came to.
    private enum Attempt {
        case applied(Int)
        /// The head moved (or the stage was lost) before the submission was applied: nothing was applied.
        case stale(String)
    }

    /// Signs every body on `head`, before anything is sent: a body that cannot be signed stops the submission
    /// with nothing submitted. Returns the signed deltas and the head after the last of them.
    private func sign(
        _ bodies: [DeltaBody],
        after head: AuthorHead
    ) throws(ClientError) -> (wire: [WireDelta], last: AuthorHead) {
        var signer = DeltaSigner(venue: client.venue.venue, keyPair: keyPair, head: head)
        var clock = HybridClock()
        var wire: [WireDelta] = []
        wire.reserveCapacity(bodies.count)
        for (index, body) in bodies.enumerated() {
            do {
                let signed = try signer.sign(body, hlc: clock.tick(nowMillis: client.time.wallMillis))
                wire.append(WireDelta(envelope: Hex.encode(signed.envelope), signature: Hex.encode(signed.signature)))
            } catch {
                throw ClientError(
                    .failed,
                    "delta \(index + 1) of \(bodies.count) cannot be signed (\(error)); nothing was submitted",
                    cause: error
                )
            }
        }
        return (wire, signer.head)
    }

    /// Sends `wire` on one connection: every chunk but the last staged, the last applying them all.
    private func send(_ wire: [WireDelta], progress: (Int, Int) -> Void) throws(ClientError) -> Attempt {
        var offset = 0
        while true {
            let end = min(offset + chunkSize, wire.count)
            let isLast = end == wire.count
            let submission = OrganizerSubmission(
                deltas: Array(wire[offset..<end]),
                certificate: certificate.map {
                    WireDelta(envelope: Hex.encode($0.envelope), signature: Hex.encode($0.signature))
                },
                step: isLast ? .apply(expectingStaged: offset > 0 ? offset : nil) : .stage
            )
            // The last request applies the whole submission in one transaction: about 1 s per 2,000 deltas
            // on a small kiosk, on top of the usual wait, before its answer is reported as unknown.
            let usual = client.control.timeout
            if isLast { client.control.timeout = usual + .seconds(wire.count / 2_000) }
            defer { client.control.timeout = usual }
            switch try client.exchange(.submit(submission)) {
            case .error(let failure):
                if failure.code == .staleHead || failure.message.hasPrefix("stale organizer head") {
                    return .stale(failure.message)
                }
                throw ClientError(.failed, offset > 0 ? failure.message + "; nothing was applied" : failure.message)
            case .submitted(.applied(let applied)) where isLast:
                progress(end, wire.count)
                return .applied(applied)
            case .submitted(.staged(let held)) where !isLast && held == end:
                progress(end, wire.count)
                offset = end
            case .submitted(.staged(let held)) where !isLast:
                throw ClientError(
                    .protocolError,
                    "musterd holds \(held) staged deltas after \(end); nothing was applied"
                )
            case let other:
                throw ClientError(
                    .protocolError,
                    "musterd answered '\(other.outcome.rawValue)' to a submission; nothing was applied"
                )
            }
        }
    }

    private func currentHead() throws(ClientError) -> AuthorHead {
        let author = AuthorID(keyPair.publicKey)
        guard case .head(let seq, let hash) = try client.send(.head(author: author)), hash.count == 32 else {
            throw ClientError(.protocolError, "musterd did not return the organizer's head")
        }
        return AuthorHead(author: author, seq: seq, hash: hash)
    }

}
