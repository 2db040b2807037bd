import MusterCore
import MusterRules

/// The organizer key on two machines (``SimOptions/organizerFork``): what `OrganizerForkTests` and
/// the end-to-end test check on a few replicas, here under every fault and over many seeds.
extension Simulation {
    /// The partition has just cut `side` from the rest: on each side one honest kiosk that is up
    /// takes two locks signed with the organizer key on its own head, stamped by its own (skewed)
    /// clock, as `muster lock` would submit them through its control socket. Each side's deltas
    /// are pushed on like the kiosk's own writes. The branch whose first lock wins by
    /// `OrganizerVersion.beats(_:_:)` joins what every replica must hold; the other must be
    /// gone from every store by the end.
    func forkOrganizer(across side: [Int]) throws(SimError) {
        guard let byzantine, byzantine.organizerBranches.isEmpty else { return }
        let cut = Set(side)
        let honest = kiosks.filter { $0.up && byzantine.liars[$0.index] == nil }
        guard let inside = honest.first(where: { cut.contains($0.index) }),
            let outside = honest.first(where: { !cut.contains($0.index) })
        else { return }
        var branches: [[SignedDelta]] = []
        for (kiosk, language) in [(inside, "de"), (outside, "fr")] {
            let wall = kiosk.wallMillis(at: now)
            do {
                let head =
                    try kiosk.store.heads().first { $0.author == venue.policy.organizer }
                    ?? .empty(venue.policy.organizer)
                var signer = DeltaSigner(venue: venue.policy.venue, keyPair: venue.organizerKey, head: head)
                let branch = try (0..<2).map { step in
                    try signer.sign(
                        .lock(
                            LockPayload(
                                version: 2 + UInt64(step),
                                campaignID: SimVenue.campaign,
                                checkInStatus: SimVenue.checkInStatus,
                                language: language
                            )
                        ),
                        hlc: HLC(physicalMillis: wall + UInt64(step), logical: 0)
                    )
                }
                let report = try kiosk.store.ingest(branch, nowMillis: wall)
                guard report.applied.count == branch.count else {
                    throw SimError("k\(kiosk.index + 1) refused the organizer's locks: \(report.rejected)")
                }
                branches.append(branch)
            } catch let error as SimError {
                throw error
            } catch {
                throw SimError("k\(kiosk.index + 1) cannot take the organizer's locks", cause: error)
            }
            try feed(kiosk, .localCommit(branches[branches.count - 1]))
        }
        if OrganizerVersion.beats(branches[1][0], branches[0][0]) { branches.swapAt(0, 1) }
        byzantine.organizerBranches = branches
        for delta in branches[0] { written[delta.ref] = delta }
    }
}
