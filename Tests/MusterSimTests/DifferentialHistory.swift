import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterTestSupport

/// A random venue history for ``StoreDifferentialTests``, from a seed: what the authors sign (honest
/// check-ins and locks, kiosks and the organizer that fork, lies of every kind the rules refuse,
/// revocations with watermarks and watermark hashes) and how it reaches a store (pages of a chain,
/// random mixtures with copies, replays, organizer submissions, both branches of a fork at once,
/// certificates admitted late).
struct DifferentialHistory {
    enum Event {
        case batch([SignedDelta], submitted: Bool, nowMillis: UInt64)
        case admit(SignedDelta, for: AuthorID)
    }

    /// One line of an author's chain; an author that forked has several.
    struct Branch {
        var deltas: [SignedDelta] = []
        var signer: DeltaSigner
        var lastHLC: HLC?
    }

    let venue: DifferentialVenue
    /// On the roster before the first event.
    private(set) var enrolled: [AuthorID] = []
    private(set) var events: [Event] = []
    var random: SimRandom
    var branches: [AuthorID: [Branch]] = [:]
    /// Everything signed, lies included.
    var universe: [SignedDelta] = []
    /// Milliseconds into the test day.
    var clock: UInt64 = 0
    var lockVersion: UInt64 = 1
    /// Certificates admitted in the course of the history.
    private var pending: [AuthorID] = []

    init(seed: UInt64) throws {
        random = SimRandom(seed: seed)
        venue = try DifferentialVenue(random: &random)
        for author in venue.authors {
            let signer = DeltaSigner(venue: venue.policy.venue, keyPair: venue.key(of: author), head: .empty(author))
            branches[author] = [Branch(signer: signer)]
        }
        enrolled = Array(venue.kiosks.prefix(3))
        // The device and the fourth kiosk: enrolled from the start, later, or never.
        for author in [venue.device, venue.kiosks[3]] {
            switch random.int(in: 0...2) {
            case 0: enrolled.append(author)
            case 1: pending.append(author)
            default: break
            }
        }
        sign(.campaign(CampaignPayload(campaignID: "c1", name: "c1")), by: venue.organizer, on: 0)
        sign(.lock(LockPayload(version: 1, campaignID: "c1", checkInStatus: "Attended")), by: venue.organizer, on: 0)
        for _ in 0..<random.int(in: 6...40) {
            step()
            clock += UInt64(random.int(in: 1...300))
        }
        finish()
    }

    /// One thing happens: an author writes, forks, lies or revokes, a certificate is admitted, or a
    /// batch is delivered.
    private mutating func step() {
        switch random.int(in: 0...99) {
        case 0..<30:
            let author = pickAuthor()
            write(by: author)
        case 30..<37:
            let author = pickAuthor(organizer: false)
            fork(author)
        case 37..<42: fork(venue.organizer)
        case 42..<52:
            let author = pickAuthor()
            lie(by: author)
        case 52..<58: revoke()
        case 58..<61: admitPending()
        default: deliver()
        }
    }

    /// Every branch whole, as catch-up pages, then everything at once in random order.
    private mutating func finish() {
        for author in venue.authors.shuffled(using: &random) {
            for branch in branches[author]! where !branch.deltas.isEmpty { batch(branch.deltas) }
        }
        batch(universe.shuffled(using: &random))
        admitPending()
    }

    /// Mostly kiosks; the organizer (unless `organizer` is false) and its device a fifth each.
    mutating func pickAuthor(organizer: Bool = true) -> AuthorID {
        let roll = random.int(in: 0...9)
        if organizer && roll < 2 { return venue.organizer }
        if roll < 4 { return venue.device }
        return venue.kiosks[random.int(in: 0...3)]
    }

    mutating func record(_ event: Event) { events.append(event) }

    private mutating func admitPending() {
        guard let author = pending.popLast() else { return }
        record(.admit(venue.certificate(for: author), for: author))
    }
}
