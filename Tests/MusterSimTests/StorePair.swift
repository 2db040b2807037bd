import Foundation
import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterStore
import MusterTestSupport

/// A ``Replica`` and a ``MemoryStore`` fed the same history, event by event: after each, what they said
/// of it (``Verdict``) and their heads must be equal, and at the end all they hold (``Holding``).
final class StorePair {
    let replica: Replica
    let memory: MemoryStore
    let venue: DifferentialVenue
    /// What the replica reported, for the test's tally of what the histories exercised.
    private(set) var reports: [IngestReport] = []
    private(set) var refusedSubmissions = 0

    init(_ history: DifferentialHistory, directory: String) throws {
        venue = history.venue
        replica = try Replica.open(path: directory + "/replica.sqlite", policy: venue.policy, freeBytes: { nil })
        memory = MemoryStore(policy: venue.policy, roster: MemoryRoster(), epoch: "differential")
        for author in history.enrolled {
            try replica.admitCertificate(venue.certificate(for: author), for: author)
            try memory.admitCertificate(venue.certificate(for: author), for: author)
        }
    }

    func close() { try? replica.close() }

    /// Runs `event` on both stores and compares what they said and their heads. Returns what differs, or nil.
    func run(_ event: DifferentialHistory.Event) throws -> String? {
        switch event {
        case .admit(let certificate, let author):
            let one = Result { () throws(ReplicaError) in try replica.admitCertificate(certificate, for: author) }
            let two = Result { () throws(ReplicaError) in try memory.admitCertificate(certificate, for: author) }
            if ((try? one.get()) != nil) != ((try? two.get()) != nil) { return "only one store admitted a certificate" }
        case .batch(let deltas, let submitted, let now):
            let one = Verdict { () throws(ReplicaError) in
                try replica.ingest(deltas, nowMillis: now, clockBoundMillis: TestTime.clockBound, atomic: submitted)
            }
            let two = Verdict { () throws(ReplicaError) in
                try memory.ingest(deltas, nowMillis: now, submitted: submitted)
            }
            if let report = one.report { reports.append(report) } else { refusedSubmissions += 1 }
            if one != two { return "verdicts differ:\n  replica \(one)\n  memory  \(two)" }
        }
        let heads = (try replica.heads(), try memory.heads())
        guard heads.0 != heads.1 else { return nil }
        func text(_ heads: [AuthorHead]) -> String {
            heads.map { "\($0.author.short)#\($0.seq):\(Hex.encode($0.hash.prefix(4)))" }.joined(separator: " ")
        }
        return "heads differ:\n  replica \(text(heads.0))\n  memory  \(text(heads.1))"
    }

    /// What the stores hold at the end, compared in full. Returns what differs, or nil.
    func compareHoldings() throws -> String? {
        let one = try Holding(replica: replica, venue: venue)
        let two = try Holding(memory: memory, venue: venue)
        return one == two ? nil : "holdings differ:\n  replica \(one)\n  memory  \(two)"
    }
}

/// What a store said of a batch: its report, or the refusal it threw.
struct Verdict: Equatable, CustomStringConvertible {
    var applied: [DeltaRef] = []
    var signatureChecked: Set<DeltaRef> = []
    var duplicates = 0
    var rejected: [DeltaRejection] = []
    var clockWarnings: [DeltaRef] = []
    var newestAcceptedHLC: HLC?
    var revocations: [RevokePayload] = []
    var newForks: [DeltaRef] = []
    var organizerForks: [DeltaRef] = []
    var forkEvidence: [SignedDelta] = []
    var stopped: ReplicaError.Code?
    var thrown: ReplicaError.Code?
    var thrownRejection: DeltaRejection?
    /// The report itself, when there was one (not compared).
    var report: IngestReport?

    init(_ ingest: () throws(ReplicaError) -> IngestReport) {
        do {
            let report = try ingest()
            self.report = report
            applied = report.applied.map(\.ref)
            signatureChecked = report.signatureChecked
            duplicates = report.duplicates
            rejected = report.rejected
            clockWarnings = report.clockWarnings
            newestAcceptedHLC = report.newestAcceptedHLC
            revocations = report.revocations
            newForks = report.newForks
            organizerForks = report.organizerForks
            forkEvidence = report.forkEvidence
            stopped = report.stoppedBy?.code
        } catch {
            thrown = error.code
            thrownRejection = error.rejection
        }
    }

    static func == (a: Verdict, b: Verdict) -> Bool {
        (a.applied, a.duplicates, a.rejected, a.clockWarnings, a.newestAcceptedHLC, a.revocations)
            == (b.applied, b.duplicates, b.rejected, b.clockWarnings, b.newestAcceptedHLC, b.revocations)
            && (a.signatureChecked, a.newForks, a.organizerForks, a.forkEvidence, a.stopped, a.thrown)
                == (b.signatureChecked, b.newForks, b.organizerForks, b.forkEvidence, b.stopped, b.thrown)
            && a.thrownRejection == b.thrownRejection
    }

    var description: String {
        if let thrown {
            return "threw \(thrown) \(thrownRejection.map { "\($0.code) \($0.ref.map(\.description) ?? "")" } ?? "")"
        }
        let refusals = rejected.map { "\($0.code) \($0.ref.map(\.description) ?? "-")" }
        return
            "applied \(applied) dup \(duplicates) rejected \(refusals) forks \(newForks) organizer \(organizerForks) "
            + "evidence \(forkEvidence.map(\.ref)) revocations \(revocations.map(\.kiosk)) warnings \(clockWarnings)"
    }
}
