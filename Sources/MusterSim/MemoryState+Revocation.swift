import MusterCore
import MusterRules

/// Revocations in memory, by ``RevocationRule``: what `Replica+Roster` does in its tables.
extension MemoryState {
    /// A stored revocation takes effect: its watermark is recorded (the lowest wins) and the kiosk's
    /// deltas after it are dropped. Returns whether it dropped any.
    ///
    /// - Parameter rederiving: inside ``rederiveRevocations(policy:signature:)``, which takes the
    ///   devices' revocations only after the organizer's have cut what they cut.
    @discardableResult
    mutating func applyRevocation(
        _ delta: SignedDelta,
        payload: RevokePayload,
        policy: VenuePolicy,
        signature: (SignedDelta) -> Bool,
        rederiving: Bool = false
    ) -> Bool {
        let kiosk = payload.kiosk
        let targetIsDevice = roster.isDevice(kiosk)
        guard
            RevocationRule.mayRevoke(
                kiosk,
                by: delta.author,
                targetIsDevice: targetIsDevice,
                organizer: policy.organizer
            )
        else { return false }
        let held =
            payload.watermarkHash == nil || payload.watermark == 0 ? nil : self.held(kiosk, seq: payload.watermark)
        let (watermark, hash) = RevocationRule.watermark(of: payload, heldHash: held?.hash)
        recordRevocation(kiosk, watermark: watermark, hash: hash, evidence: delta)
        let dropsRevocations = !rederiving && holdsRevocation(of: kiosk, after: watermark)
        let dropped = truncate(kiosk, after: watermark, signature: signature)
        // A revoked device loses revocations it signed after its watermark: derive them again.
        if dropsRevocations { rederiveRevocations(policy: policy, signature: signature) }
        return dropped
    }

    /// Records (or lowers) a kiosk's revocation watermark: the lowest wins, whatever the order.
    mutating func recordRevocation(_ kiosk: AuthorID, watermark: UInt64, hash: [UInt8]?, evidence: SignedDelta) {
        guard RevocationRule.replaces(watermark, recorded: revocations[kiosk]?.watermark) else { return }
        revocations[kiosk] = MemoryRevocation(watermark: watermark, evidence: evidence, hash: hash)
    }

    /// Derives every revocation again from the revocations held, in ``RevocationRule/derivationOrder(_:organizer:)``:
    /// called only when a revocation stopped counting (its device was revoked before it, or its target
    /// turned out to be a device).
    mutating func rederiveRevocations(policy: VenuePolicy, signature: (SignedDelta) -> Bool) {
        revocations = [:]
        let held = logs.values.flatMap { log in log.lazy.filter { $0.delta.kind == .revoke }.map(\.delta) }
        for delta in RevocationRule.derivationOrder(held, organizer: policy.organizer) {
            // A revocation an earlier one in this pass cut off is gone from the log.
            guard self.held(delta.author, seq: delta.seq) != nil,
                case .revoke(let payload)? = try? delta.decode().body
            else { continue }
            applyRevocation(delta, payload: payload, policy: policy, signature: signature, rederiving: true)
        }
    }

    /// Records an enrollment (the first certificate of a key wins). A device's revocation of this key,
    /// held before its certificate said it is a device, no longer counts: the revocations are derived again.
    mutating func enroll(
        _ payload: EnrollPayload,
        certificateHLC: HLC,
        policy: VenuePolicy,
        signature: (SignedDelta) -> Bool
    ) {
        guard roster.enroll(payload, certificateHLC: certificateHLC) else { return }
        if payload.role == .organizerDevice, revocations[payload.kiosk] != nil {
            rederiveRevocations(policy: policy, signature: signature)
        }
    }
}
