import MusterControl
import MusterCore
import MusterRules

/// The organizer's submissions: signed deltas checked for shape and author, staged on the connection or
/// applied all at once.
extension ControlHandler {
    /// Organizer deltas built and signed by `muster`: staged on the connection, or applied together with
    /// everything staged before them, all or nothing in one transaction.
    func submit(_ submission: OrganizerSubmission, stage: inout SubmissionStage) throws -> ControlResponse {
        let device = try submission.certificate.map(admitDevice)
        let submitted = try signedDeltas(submission.deltas, device: device)
        guard case .apply(let expectingStaged) = submission.step else {
            try stage.add(submitted)
            return .submitted(.staged(stage.count))
        }
        let held = stage.take()
        if let expected = expectingStaged, expected != held.count {
            throw RequestError(
                .staleHead,
                "stale organizer head (this connection holds \(held.count) staged deltas, not \(expected): the "
                    + "connection was reset); nothing was applied; rebuild and resubmit"
            )
        }
        return try submit(held.isEmpty ? submitted : held + submitted)
    }

    /// Records an organizer device's certificate on the roster (it is gossiped to the peers with the
    /// device's first deltas); returns the device's key.
    private func admitDevice(_ wire: WireDelta) throws(RequestError) -> AuthorID {
        guard let certificate = Self.signedDelta(wire),
            case .enroll(let payload)? = try? certificate.decode().body, payload.role == .organizerDevice
        else { throw RequestError(.rejected, "the certificate is not an organizer device's enrollment") }
        do {
            _ = try replica.admitCertificate(certificate, for: payload.kiosk)
        } catch {
            throw RequestError(.rejected, "the organizer device's certificate is refused: \(error.message)")
        }
        return payload.kiosk
    }

    private static func signedDelta(_ wire: WireDelta) -> SignedDelta? {
        guard let envelope = Hex.decode(wire.envelope), let signature = Hex.decode(wire.signature) else { return nil }
        return try? SignedDelta(envelope: envelope, signature: signature)
    }

    /// Checks the shape and author of submitted deltas, before anything is staged or applied: the
    /// organizer key, or the organizer device whose certificate came with the request.
    private func signedDeltas(_ wire: [WireDelta], device: AuthorID?) throws(RequestError) -> [SignedDelta] {
        var deltas: [SignedDelta] = []
        deltas.reserveCapacity(wire.count)
        for item in wire {
            guard let delta = Self.signedDelta(item) else { throw RequestError("a submitted delta is malformed") }
            guard delta.author == replica.policy.organizer || delta.author == device else {
                throw RequestError(
                    .rejected,
                    "only deltas signed by the venue's organizer key or an organizer device can be submitted"
                )
            }
            deltas.append(delta)
        }
        return deltas
    }

    /// Applies organizer deltas in one transaction: all or nothing.
    func submit(_ deltas: [SignedDelta]) throws -> ControlResponse {
        do {
            let report = try replica.ingest(
                deltas,
                nowMillis: clock.nowMillis,
                clockBoundMillis: clock.boundMillis,
                atomic: true
            )
            commitTrace?.record(report.applied, origin: .local)
            if let hlc = report.newestAcceptedHLC { clock.observe(hlc) }
            if !report.applied.isEmpty { published(report.applied) }
            for ref in report.clockWarnings {
                logger.warning("delta stamped ahead of local time beyond the bound", metadata: ["delta": "\(ref)"])
            }
            logger.info(
                "organizer submission",
                metadata: ["applied": "\(report.applied.count)", "duplicates": "\(report.duplicates)"]
            )
            return .submitted(.applied(report.applied.count))
        } catch {
            guard Self.isStaleHead(error.code) else { throw error }
            throw RequestError(.staleHead, "stale organizer head (\(error.message)); rebuild and resubmit")
        }
    }

    static func isStaleHead(_ code: ReplicaError.Code) -> Bool {
        code == .gap || code == .brokenChain || code == .fork
    }
}
