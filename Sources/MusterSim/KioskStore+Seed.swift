import MusterCore
import MusterRules

/// The organizer's chain every store of a Byzantine or organizer-fork run starts with.
extension KioskStore {
    /// Stores the organizer's chain (``SimVenue/organizerLog()``) before the run starts, as if
    /// the import and the lock had reached every kiosk already.
    func seed(_ log: [SignedDelta]) throws(SimError) {
        let report: IngestReport
        do {
            report = try ingest(log, nowMillis: SimVenue.startMillis)
        } catch {
            throw SimError("cannot store the organizer's chain", cause: error)
        }
        if let refusal = report.rejected.first { throw SimError("the organizer's chain was refused", cause: refusal) }
    }
}
