import Foundation
import GRDB
import MusterCore
import MusterCrypto

/// Who may author a run: the roster's verdict on its author, and the cuts a fork or a revocation makes.
extension Replica {
    /// Only the organizer, kiosks and organizer devices on the roster may author deltas; a revoked
    /// author's deltas after its watermark are cut off. Returns nil when nothing of the run remains,
    /// else whether the author is an organizer device (from the run's ``AuthorRecord``, so this
    /// costs no query unless the author forked or was revoked).
    func admitAuthor(
        _ author: AuthorID,
        record: AuthorRecord,
        forkCut: UInt64?,
        fresh: inout [SignedDelta],
        offered: [SignedDelta],
        db: Database,
        into report: inout IngestReport
    ) throws -> Bool? {
        if let cut = forkCut, let index = fresh.firstIndex(where: { $0.seq >= cut }) {
            report.rejected.append(
                DeltaRejection(
                    .forked,
                    "\(author) forked at seq \(cut); its chain ends before it",
                    ref: fresh[index].ref
                )
            )
            // Whoever offered less than the whole evidence (one version, or a continuation) may not
            // know of the fork: the evidence goes back out with the report. Whoever offered both
            // versions knows, so two replicas that both know never bounce it between them.
            let evidence = try Self.forkEvidence(of: author, seq: cut, db: db)
            if !evidence.allSatisfy({ offered.contains($0) }) { report.forkEvidence += evidence }
            fresh.removeSubrange(index...)
            if fresh.isEmpty { return nil }
        }
        switch record.membership {
        case .organizer, .enrolled:
            return false
        case .device:
            return true
        case .unknown:
            report.rejected.append(
                DeltaRejection(.notEnrolled, "\(author) is not on the venue roster", ref: fresh.first?.ref)
            )
            return nil
        case .revoked(var watermark, let evidence):
            // A delta at the watermark must be the one the revocation names by hash; another version
            // there lowers the watermark below it, as if the revocation had found it already stored.
            if let expected = try Data.fetchOne(
                db,
                sql: "SELECT watermark_hash FROM revocation WHERE kiosk = ?",
                arguments: [Data(author.bytes)]
            ), let atMark = fresh.first(where: { $0.seq == watermark }),
                Blake2b.hash256(atMark.envelope) != Array(expected)
            {
                watermark -= 1
                try Self.recordRevocation(author, watermark: watermark, hash: nil, evidence: evidence, db: db)
            }
            if let cut = fresh.firstIndex(where: { $0.seq > watermark }) {
                report.rejected.append(
                    DeltaRejection(.revoked, "kiosk \(author) was revoked after seq \(watermark)", ref: fresh[cut].ref)
                )
                fresh.removeSubrange(cut...)
            }
            // A revoked device's deltas up to its watermark are still a device's.
            return fresh.isEmpty ? nil : record.isDevice
        }
    }
}
