import Foundation
import MusterControl
import MusterCore
import MusterCrypto
import MusterRules
import MusterStore
import MusterTime

/// `muster revoke`: takes a kiosk off the roster and rotates the venue network key.
///
/// The watermark is the revoked kiosk's newest seq this replica holds, or the one the organizer
/// chooses (``Watermark``): what it wrote up to there stays everywhere, anything later is refused.
/// It names that delta by hash too, so it is the same delta on every replica. What will be dropped
/// (of what this replica holds) is listed in the answer. The new network key is sealed to every remaining
/// kiosk inside the signed revocation, and the organizer's venue file is updated to it (so later
/// enrollments hand out the new key).
public struct Revocation {
    let client: ClientContext
    let keyPath: String
    let venuePath: String

    /// Where the revoked kiosk's records stop being accepted.
    public enum Watermark: Sendable, Equatable {
        /// Everything this replica holds of the kiosk stays.
        case newest
        /// `muster revoke --watermark SEQ`: up to and including that seq.
        case seq(UInt64)
        /// `muster revoke --before TIME`: what the kiosk stamped and this replica received before that
        /// time (Unix ms; ``Replica/lastSeq(of:before:)``), so later forgeries go, and back-dated ones
        /// too: a stamp is the thief's word, the receipt time this replica's own.
        case before(millis: UInt64)

        /// The time of `--before TIME`, nil for the other choices.
        var millis: UInt64? {
            guard case .before(let millis) = self else { return nil }
            return millis
        }
    }

    /// At most this many dropped records are listed one by one.
    static let listedDrops = 20

    public init(_ client: ClientContext, keyPath: String, venuePath: String) {
        self.client = client
        self.keyPath = keyPath
        self.venuePath = venuePath
    }

    /// Finds a kiosk on the roster by name, by the fingerprint its `muster status` prints (`1a2b-3c4d-5e6f-7a8b`,
    /// dashes optional), or by its key in hex; a unique prefix of at least 8 hex digits of either will do.
    ///
    /// The fingerprint is a hash of the key, not a prefix of it: the one thing a person at the stolen kiosk's
    /// neighbour can read off a screen, so it must work.
    static func find(_ query: String, in roster: [RosterEntry]) throws(ClientError) -> RosterEntry {
        let wanted = query.trimmingWhitespace().lowercased()
        let compact = wanted.replacingOccurrences(of: "-", with: "")
        let isHex = compact.count >= 8 && compact.allSatisfy(\.isHexDigit)
        let matches = roster.filter { entry in
            if entry.name.lowercased() == wanted { return true }
            guard isHex else { return false }
            if entry.kiosk.hex.hasPrefix(compact) { return true }
            let fingerprint = (try? SigningPublicKey(bytes: entry.kiosk.bytes))?.fingerprint ?? ""
            return fingerprint.replacingOccurrences(of: "-", with: "").hasPrefix(compact)
        }
        guard let entry = matches.first else {
            throw ClientError(.notFound, "no kiosk named or keyed '\(TerminalText.sanitize(query))' on the roster")
        }
        guard matches.count == 1 else {
            // A kiosk whose disk was lost is enrolled again under its old name: the person revoking needs
            // the fingerprints to tell the live box (its `muster status` shows one) from the dead keys.
            let listed = matches.map { match in
                let fingerprint = (try? SigningPublicKey(bytes: match.kiosk.bytes))?.fingerprint ?? match.kiosk.hex
                return "\(fingerprint) (\(TerminalText.sanitize(match.location))"
                    + (match.revokedWatermark == nil ? ")" : ", revoked)")
            }
            throw ClientError(
                .usage,
                "'\(TerminalText.sanitize(query))' matches \(matches.count) kiosks; give its key fingerprint: "
                    + listed.joined(separator: ", ")
            )
        }
        return entry
    }

    public func revoke(_ query: String, watermark chosen: Watermark = .newest) throws(ClientError) -> String {
        let signer = try OrganizerKey.signer(path: keyPath)
        let submitter = try OrganizerSubmitter(client: client, signer: signer)
        let venue = try VenueFile.read(path: venuePath)
        guard venue.venue == client.venue.venue else {
            throw ClientError(.config, "\(venuePath) belongs to another venue than this kiosk")
        }
        let plan = try plan(query, watermark: chosen, byDevice: signer.certificate != nil, venue: venue)
        let target = plan.target
        // Devices hold no sessions: the new network key goes to the kiosks only.
        let remaining = plan.roster.filter {
            $0.revokedWatermark == nil && $0.kiosk != target.kiosk && $0.role == .kiosk
        }
        let (newKey, sealedKeys) = try Self.sealNewKey(to: remaining)
        try submitter.submit([
            .revoke(
                RevokePayload(
                    kiosk: target.kiosk,
                    watermark: plan.watermark,
                    keyGeneration: plan.generation,
                    sealedKeys: sealedKeys,
                    watermarkHash: plan.watermarkHash
                )
            )
        ])
        do {
            try venue.rotated(to: newKey, generation: plan.generation).write(to: venuePath, overwrite: true)
        } catch {
            throw ClientError(
                .failed,
                "the kiosk is revoked, but \(venuePath) could not be updated to the new network key: \(error)",
                cause: error
            )
        }
        return "Revoked kiosk '\(TerminalText.sanitize(target.name))' (\(TerminalText.sanitize(target.location))): "
            + "its records up to #\(plan.watermark) stay, anything later is refused everywhere. "
            + "Network key rotated to generation \(plan.generation) for \(remaining.count) kiosk(s)."
            + Self.describe(dropped: plan.dropped, before: chosen.millis)
    }

    /// What a revocation will say, read from this kiosk's replica.
    struct Plan {
        let roster: [RosterEntry]
        let target: RosterEntry
        let watermark: UInt64
        /// The delta at the watermark, named by hash too, so the watermark is the same delta on every replica.
        let watermarkHash: [UInt8]?
        /// What this replica holds of the target after the watermark.
        let dropped: [SignedDelta]
        let generation: UInt64
    }

    private func plan(
        _ query: String,
        watermark chosen: Watermark,
        byDevice: Bool,
        venue: VenueFile
    ) throws(ClientError) -> Plan {
        do {
            let replica = try client.replica()
            let roster = try replica.roster()
            let target = try Self.find(query, in: roster)
            guard target.revokedWatermark == nil else {
                throw ClientError(.usage, "kiosk '\(TerminalText.sanitize(target.name))' is already revoked")
            }
            guard target.role == .kiosk || !byDevice else {
                throw ClientError(
                    .usage,
                    "'\(TerminalText.sanitize(target.name))' is an organizer device: only the organizer key revokes it"
                )
            }
            let watermark = try Self.watermark(chosen, of: target, in: replica)
            var dropped: [SignedDelta] = []
            while true {
                let page = try replica.deltas(of: target.kiosk, after: dropped.last?.seq ?? watermark)
                guard !page.isEmpty else { break }
                dropped += page
            }
            return Plan(
                roster: roster,
                target: target,
                watermark: watermark,
                watermarkHash: watermark > 0 ? try replica.deltaHash(of: target.kiosk, seq: watermark) : nil,
                dropped: dropped,
                generation: max(venue.keyGeneration, try replica.newestKeyGeneration()) + 1
            )
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError(.failed, describing: error)
        }
    }

    private static func watermark(_ chosen: Watermark, of target: RosterEntry, in replica: Replica) throws -> UInt64 {
        let head = try replica.head(of: target.kiosk)
        switch chosen {
        case .newest:
            return head.seq
        case .seq(let seq):
            guard seq <= head.seq else {
                throw ClientError(
                    .usage,
                    "this replica holds kiosk '\(TerminalText.sanitize(target.name))' only up to #\(head.seq); "
                        + "choose a watermark it holds"
                )
            }
            return seq
        case .before(let millis):
            return try replica.lastSeq(of: target.kiosk, before: millis)
        }
    }

    /// A new network key, sealed to each kiosk that stays.
    private static func sealNewKey(
        to remaining: [RosterEntry]
    ) throws(ClientError) -> (SecureBytes, [RevokePayload.SealedKey]) {
        guard remaining.count <= RevokePayload.maxSealedKeys else {
            throw ClientError(
                .failed,
                "a venue of more than \(RevokePayload.maxSealedKeys) kiosks cannot rotate its key in one revocation"
            )
        }
        do {
            let newKey = try SecureBytes.random(count: 32)
            var sealedKeys: [RevokePayload.SealedKey] = []
            for entry in remaining {
                let key = try SigningPublicKey(bytes: entry.kiosk.bytes)
                sealedKeys.append(.init(kiosk: entry.kiosk, sealed: try SealedBox.seal(newKey, to: key)))
            }
            return (newKey, sealedKeys)
        } catch {
            throw ClientError(.failed, error.message, cause: error)
        }
    }

    /// What the revocation drops of what this replica holds, one line per record (the first few).
    /// With `--before TIME`, a record stamped before TIME is marked: it reached this replica after
    /// TIME, so it is back-dated, or it was written before and delayed (keep it with `--watermark`).
    static func describe(dropped: [SignedDelta], before millis: UInt64? = nil) -> String {
        guard !dropped.isEmpty else {
            return "\nDropped here: nothing (this replica holds nothing after the watermark)."
        }
        var lines = ["Dropped here: \(dropped.count) record(s)."]
        for delta in dropped.prefix(listedDrops) {
            var line =
                "  #\(delta.seq) \(delta.kindName) at \(ClockText.dateTime(millis: Int64(clamping: delta.hlc.physicalMillis)))"
            if let decoded = try? delta.decode() {
                switch decoded.body {
                case .checkIn(let p): line += " " + p.presence.attendeeKey
                case .checkOut(let p): line += " " + p.presence.attendeeKey
                case .registration(let p): line += " " + p.presence.attendeeKey
                case .note(let p): line += " " + p.attendeeKey
                default: break
                }
            }
            if let millis, delta.hlc.physicalMillis < millis { line += " (stamped before the time, received after it)" }
            lines.append(TerminalText.sanitize(line))
        }
        if dropped.count > listedDrops { lines.append("  … and \(dropped.count - listedDrops) more") }
        return "\n" + lines.joined(separator: "\n")
    }
}
