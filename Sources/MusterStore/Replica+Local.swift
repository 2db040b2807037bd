import Foundation
import GRDB
public import MusterCore
public import MusterCrypto
public import MusterRules

extension Replica {
    /// Appends one delta authored by this kiosk, deciding on a consistent snapshot.
    ///
    /// `decide` runs inside the write transaction, so a decision such as "not yet checked in, so
    /// check in" cannot race another write. The transaction commits with `synchronous=FULL` before
    /// this returns: a caller may acknowledge the result to a person only after it returns.
    ///
    /// - Parameters:
    ///   - keyPair: the kiosk's signing key.
    ///   - nextHLC: called once, inside the transaction, when a delta is to be appended, with the
    ///     timestamp the new delta must exceed: the newest of ``LocalWrite/notBefore``, this
    ///     author's previous delta and (just before) its certificate, so that a kiosk whose clock
    ///     runs behind the organizer's laptop still stamps inside its certificate's window.
    ///   - decide: returns the body to append (or nil to append nothing) and a result for the caller.
    /// - Returns: the caller's result and the stored delta, if one was appended.
    public func appendLocal<T>(
        keyPair: SigningKeyPair,
        nowMillis: UInt64,
        nextHLC: (HLC?) -> HLC,
        _ decide: (ReplicaView) throws -> LocalWrite<T>
    ) throws(ReplicaError) -> (result: T, delta: SignedDelta?) {
        do {
            let written: (result: T, delta: SignedDelta?) = try writeForPerson { db in
                try Self.transaction(db) {
                    let decision = try decide(ReplicaView(db))
                    guard let body = decision.body else { return (decision.result, nil) }
                    CrashPoint.localDecided.hit()
                    let (signed, decoded, hash) = try signNext(
                        body,
                        notBefore: decision.notBefore,
                        keyPair: keyPair,
                        nextHLC: nextHLC,
                        db: db
                    )
                    CrashPoint.localSigned.hit()
                    try store(signed, decoded: decoded, hash: hash, verified: true, db: db, nowMillis: nowMillis)
                    CrashPoint.localStored.hit()
                    return (decision.result, signed)
                }
            }
            if written.delta != nil { CrashPoint.localCommitted.hit() }
            return written
        } catch {
            throw Replica.mapError(error)
        }
    }

    /// This kiosk's next delta with `body`, signed on its head and judged by the rules every peer applies,
    /// with its decoded form and hash. Refused, never saturated: a timestamp that cannot move past the
    /// previous one (a clock at the end of its range) or leaves the certificate's window would be refused
    /// by every peer, so it is never acknowledged here either.
    private func signNext(
        _ body: DeltaBody,
        notBefore: HLC?,
        keyPair: SigningKeyPair,
        nextHLC: (HLC?) -> HLC,
        db: Database
    ) throws -> (SignedDelta, Delta, [UInt8]) {
        let author = AuthorID(keyPair.publicKey)
        let record = try AuthorRecord.fetch(author, policy: policy, db: db, hot: hot)
        let head = record.head
        let next = DeltaRef(author: author, seq: head.seq + 1)
        if let cut = record.forkCut {
            throw ReplicaError(.forked, "this key signed two different deltas at seq \(cut)", ref: next)
        }
        try refuseSigningOverSetAside(author: author, head: head, next: next, db: db)
        let previous = record.headHLC
        let certificate = record.certificateHLC
        let justBeforeCertificate = certificate.flatMap { stamp in
            stamp.packed == 0 ? nil : HLC(packed: stamp.packed - 1)
        }
        let hlc = nextHLC([notBefore, previous, justBeforeCertificate].compactMap { $0 }.max())
        try policy.checkTime(hlc, after: previous, certificate: certificate, ref: next)
        var signer = DeltaSigner(venue: policy.venue, keyPair: keyPair, head: head)
        let signed: SignedDelta
        do throws(DeltaSignerError) {
            signed = try signer.sign(body, hlc: hlc)
        } catch {
            throw ReplicaError(.malformed, error.description, underlying: error)
        }
        try policy.authorize(signed)
        let decoded = try signed.decode()
        try policy.checkMeaning(decoded)
        return (signed, decoded, signer.head.hash)
    }

    /// Never sign a seq a revocation of this kiosk set aside: those deltas come back when the revocation is
    /// taken back, and a second version of their seqs would be a fork that cuts this kiosk everywhere (found
    /// by the fault campaign's revocations).
    private func refuseSigningOverSetAside(author: AuthorID, head: AuthorHead, next: DeltaRef, db: Database) throws {
        guard
            // Prepared once per connection: every local check-in asks (an uncached statement was a tenth
            // of a check-in's instructions, `make guard`).
            let aside = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT MAX(seq) FROM set_aside WHERE author = ? AND seq > ?"),
                arguments: [Data(author.bytes), Int64(clamping: head.seq)]
            )
        else { return }
        throw ReplicaError(
            .revoked,
            "a revocation set aside this kiosk's own deltas through seq \(aside); nothing is signed until it is taken back",
            ref: next
        )
    }
}

/// What a local write decided: the body to append, if any, and the answer for the caller.
public struct LocalWrite<T> {
    public let body: DeltaBody?
    public let result: T
    /// The new delta must be stamped after this. Check-outs no longer need it (they name the
    /// arrivals they end), and a floor taken from a peer's far-future stamp would drag this
    /// kiosk's own chain into the future, so the daemon passes none; kept for callers that order
    /// their own writes.
    public let notBefore: HLC?

    /// Append nothing; just answer.
    public static func answer(_ result: T) -> LocalWrite { LocalWrite(body: nil, result: result, notBefore: nil) }

    /// Append `body`, stamped after `notBefore` if given, then answer.
    public static func append(_ body: DeltaBody, answer result: T, after notBefore: HLC? = nil) -> LocalWrite {
        LocalWrite(body: body, result: result, notBefore: notBefore)
    }
}
