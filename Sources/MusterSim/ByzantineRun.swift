import MusterCore
import MusterRules

/// The lying side of one Byzantine run (``SimOptions/byzantine``): which kiosks lie, the organizer's
/// chain every replica starts with, and what the honest stores were shown of the lies.
final class ByzantineRun {
    /// The liars, by kiosk index.
    let liars: [Int: Liar]
    let organizerLog: [SignedDelta]
    /// Every version of a liar's delta that reached an honest store: stored, or kept as fork
    /// evidence. Two versions at one seq prove a fork there.
    private(set) var seen: [DeltaRef: [SignedDelta]] = [:]
    /// The two branches the organizer key signed on either side of the partition
    /// (``SimOptions/organizerFork``), once it did; the first is the one every replica must keep.
    var organizerBranches: [[SignedDelta]] = []
    /// The kiosk the organizer revoked across the partition (``SimOptions/revoke``), once it did.
    var revocation: Revoked?

    /// A revocation of the run: the kiosk (by index), its key, and the watermark.
    struct Revoked {
        let kiosk: Int
        let author: AuthorID
        let watermark: UInt64
    }
    /// Consecutive settle probes that found the honest kiosks agreeing, and since when.
    var agreeing = 0
    var agreedSince: VirtualTime = 0

    /// Between two settle probes (``SimEvent/settle``), and how many in a row must agree.
    static let settleInterval: VirtualTime = 500 * VirtualTime.millisecond
    static let settleProbes = 4
    /// Events after which a Byzantine run gives up (an honest 10-kiosk run of 100 check-ins with every
    /// fault takes about 18,000).
    static let eventLimit = 1_000_000

    init(options: SimOptions, venue: SimVenue, random: inout SimRandom) throws(SimError) {
        // What the checker reads of liars' effects (attendees, presences) is the replica's materialized
        // state; the memory store judges the same deltas alike but materializes nothing.
        guard options.byzantine == 0 || options.store == .sqlite else {
            throw SimError("a Byzantine run needs the real replica (--store sqlite): the checker reads its attendees")
        }
        guard options.byzantine >= 1 || options.organizerFork || options.revoke, options.kiosks - options.byzantine >= 2
        else {
            throw SimError("\(options.byzantine) liars among \(options.kiosks) kiosks leave fewer than 2 honest ones")
        }
        organizerLog = try venue.organizerLog()
        let chosen = Simulation.pick(options.byzantine, of: options.kiosks, &random)
        var liars: [Int: Liar] = [:]
        for index in chosen.indices where chosen[index] {
            liars[index] = Liar(
                index: index,
                key: venue.kioskKeys[index],
                venue: venue,
                kiosks: options.kiosks,
                imported: SimVenue.importedAttendees,
                random: &random
            )
        }
        self.liars = liars
    }

    var liarAuthors: Set<AuthorID> { Set(liars.values.map(\.author)) }

    /// An honest kiosk's store reported on a batch: note the liars' deltas it took in.
    func noteStored(_ report: IngestReport) {
        let authors = liarAuthors
        for delta in report.applied + report.forkEvidence where authors.contains(delta.author) {
            if !(seen[delta.ref]?.contains(delta) ?? false) { seen[delta.ref, default: []].append(delta) }
        }
    }

    /// The lowest seq at which honest stores were shown two versions, per liar: every honest
    /// replica must cut the liar's chain there.
    var forks: [AuthorID: UInt64] {
        var forks: [AuthorID: UInt64] = [:]
        for (ref, versions) in seen where versions.count >= 2 {
            forks[ref.author] = min(forks[ref.author] ?? .max, ref.seq)
        }
        return forks
    }

    /// The (campaign, attendee) pairs the liars wrote presences to, for reading what counts.
    var presenceTargets: [(campaign: String, key: String)] {
        var targets: [String: (campaign: String, key: String)] = [:]
        for liar in liars.values {
            for delta in liar.branches.joined() {
                guard let decoded = try? delta.decode() else { continue }
                let presence: PresencePayload
                switch decoded.body {
                case .checkIn(let p): presence = p.presence
                case .registration(let p): presence = p.presence
                default: continue
                }
                targets["\(presence.campaignID)\u{0}\(presence.attendeeKey)"] = (
                    presence.campaignID, presence.attendeeKey
                )
            }
        }
        return targets.keys.sorted().compactMap { targets[$0] }
    }

    /// What the checker needs to judge the lies; `ceiling` bounds honest kiosks' stamps.
    func history(facts: [String: KioskFacts], ceilingMillis: UInt64) -> ByzantineHistory {
        var versions: [DeltaRef: [SignedDelta]] = [:]
        var refused: [DeltaRef: [SignedDelta]] = [:]
        var names: [AuthorID: String] = [:]
        for liar in liars.values {
            names[liar.author] = "k\(liar.index + 1)"
            for delta in liar.branches.joined() where !(versions[delta.ref]?.contains(delta) ?? false) {
                versions[delta.ref, default: []].append(delta)
            }
            for delta in liar.refused { refused[delta.ref, default: []].append(delta) }
        }
        return ByzantineHistory(
            liars: names,
            versions: versions,
            refused: refused,
            forks: forks,
            imported: (0..<SimVenue.importedAttendees).map(SimVenue.attendee),
            facts: facts,
            stampCeilingMillis: ceilingMillis
        )
    }
}
