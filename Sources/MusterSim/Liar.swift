import MusterCore
import MusterCrypto
import MusterRules
import MusterSync

/// A lying kiosk (``SimOptions/byzantine``): an enrolled insider holding a real kiosk key, speaking
/// the real protocol, that writes its own chain itself so that it can lie with it.
///
/// Each time an attendee comes to it, it signs one delta per branch with the real ``DeltaSigner``.
/// Until it forks, the branches are the same chain. At a random step it forks: from then on each
/// branch gets its own delta at every seq, and each peer is shown one branch only (``branchOf``),
/// whatever it asks for. Its lies are honest-looking check-ins, rewrites (a registration naming an
/// imported attendee, under her own email or another), check-ins with forged kiosk fields or member
/// status, check-ins into a campaign nobody locked, and stamps far in the future: one day ahead, at
/// the very end of its certificate's lifetime, just beyond it, and at the largest HLC there is.
///
/// Which of them the venue's rules must refuse outright is known when it is signed (``refused``):
/// the checker holds every honest replica to it.
final class Liar {
    /// One lie a step can tell.
    enum Lie: CaseIterable {
        case checkIn, forgedPlace, forgedStatus, unlockedCampaign, renameImported, rewriteOther
        case dayAhead, lifetimeEdge, beyondLifetime, maxStamp, backwards

        /// How often it is told, out of ``totalWeight``: mostly deltas that are stored, so the
        /// chain goes on (a refused delta ends it on every replica).
        var weight: Int {
            switch self {
            case .checkIn: 40
            case .forgedPlace, .forgedStatus, .unlockedCampaign, .renameImported: 8
            case .dayAhead: 6
            case .lifetimeEdge, .rewriteOther, .beyondLifetime: 4
            case .maxStamp, .backwards: 3
            }
        }

        static let totalWeight = allCases.reduce(0) { $0 + $1.weight }
    }

    /// The campaign nobody locked, and the kiosk fields a liar claims for itself.
    static let unlockedCampaign = "never-locked"
    static let forgedKioskName = "Hall A (VIP entrance)"
    static let forgedLocation = "VIP lounge"
    static let forgedStatus = "VIP"

    let index: Int
    let author: AuthorID
    /// The branch each kiosk (by index) is shown.
    let branchOf: [Int]
    /// Every delta signed, per branch; the branches have the same length.
    private(set) var branches: [[SignedDelta]] = [[], []]
    /// Deltas the venue's rules refuse wherever they arrive (their meaning or their stamp).
    private(set) var refused: [SignedDelta] = []
    private var signers: [DeltaSigner]
    /// The newest acceptable stamp of each branch (a refused stamp does not move it).
    private var newest: [HLC?] = [nil, nil]
    private let certificate: HLC
    private let imported: Int
    private var random: SimRandom
    private(set) var forked = false

    init(
        index: Int,
        key: SigningKeyPair,
        venue: SimVenue,
        kiosks: Int,
        imported: Int,
        random: inout SimRandom
    ) {
        self.index = index
        author = AuthorID(key.publicKey)
        certificate = venue.certificates[index].0.hlc
        self.imported = imported
        signers = [DeltaSigner](
            repeating: DeltaSigner(venue: venue.policy.venue, keyPair: key, head: .empty(author)),
            count: 2
        )
        var shown = (0..<kiosks).map { _ in random.int(in: 0...1) }
        // Both versions must reach honest kiosks: at least one peer on each branch.
        let peers = (0..<kiosks).filter { $0 != index }
        if let first = peers.first, peers.allSatisfy({ shown[$0] == shown[first] }) { shown[first] ^= 1 }
        branchOf = shown
        self.random = random.fork(UInt64(index))
    }

    var head: AuthorHead { branchHead(0) }

    /// The head of one branch as its peers see it.
    func branchHead(_ branch: Int, seq: UInt64? = nil) -> AuthorHead {
        let chain = branches[branch]
        let seq = min(seq ?? UInt64(chain.count), UInt64(chain.count))
        guard seq > 0 else { return .empty(author) }
        return AuthorHead(author: author, seq: seq, hash: Blake2b.hash256(chain[Int(seq) - 1].envelope))
    }

    /// One attendee (workload item `item`) comes to the liar at its wall-clock time `wallMillis`:
    /// it signs the next delta of each branch, forking here at random if it has not yet.
    func step(item: Int, wallMillis: UInt64) throws(SimError) {
        let forkNow = !forked && !branches[0].isEmpty && random.chance(0.35)
        forked = forked || forkNow
        let shared = draw()
        let sharedBody = body(shared, item: item)
        for branch in 0..<2 {
            // At the fork the second branch names another attendee, so the two versions differ.
            let lie = forked && branch == 1 && !forkNow ? draw() : shared
            let (body, meaningRefused) =
                branch == 0 || !forked ? sharedBody : body(lie, item: forkNow ? item + 1 : item)
            let hlc = stamp(lie, branch: branch, wallMillis: wallMillis)
            let timeRefused = !acceptable(hlc, after: newest[branch])
            let delta: SignedDelta
            do {
                delta = try signers[branch].sign(body, hlc: hlc)
            } catch {
                throw SimError("liar k\(index + 1) cannot sign its lie", cause: error)
            }
            branches[branch].append(delta)
            if meaningRefused || timeRefused { refused.append(delta) }
            if !timeRefused { newest[branch] = hlc }
        }
    }

    private func draw() -> Lie {
        var pick = random.int(in: 0...(Lie.totalWeight - 1))
        for lie in Lie.allCases {
            if pick < lie.weight { return lie }
            pick -= lie.weight
        }
        return .checkIn
    }

    /// The body of a lie, and whether its meaning alone gets it refused.
    private func body(_ lie: Lie, item: Int) -> (DeltaBody, Bool) {
        let key = "a\(item)@sim.example"
        var presence = PresencePayload(
            campaignID: SimVenue.campaign,
            attendeeKey: key,
            kioskName: "k\(index + 1)",
            location: "Hall",
            memberStatus: SimVenue.checkInStatus
        )
        switch lie {
        case .forgedPlace:
            presence.kioskName = Self.forgedKioskName
            presence.location = Self.forgedLocation
        case .forgedStatus: presence.memberStatus = Self.forgedStatus
        case .unlockedCampaign: presence.campaignID = Self.unlockedCampaign
        case .renameImported, .rewriteOther:
            let victim = SimVenue.attendee(random.int(in: 0...(imported - 1)))
            presence.attendeeKey = victim.key
            let email = lie == .renameImported ? victim.email : "eve@evil.example"
            let registration = RegistrationPayload(
                presence: presence,
                email: email,
                firstName: "Eve",
                lastName: "Mallory",
                company: "Evil Corp",
                ticket: "W-EVIL0001"
            )
            return (.registration(registration), lie == .rewriteOther)
        default: break
        }
        return (.checkIn(CheckInPayload(presence)), false)
    }

    private var lifetimeEnd: UInt64 { certificate.physicalMillis + VenuePolicy.certificateLifetimeMillis }

    /// The stamp a lie carries on `branch`.
    private func stamp(_ lie: Lie, branch: Int, wallMillis: UInt64) -> HLC {
        let previous = newest[branch]
        switch lie {
        case .dayAhead: return next(after: previous, millis: wallMillis + 86_400_000)
        case .lifetimeEdge: return next(after: previous, millis: lifetimeEnd)
        case .beyondLifetime: return HLC(physicalMillis: lifetimeEnd + 1, logical: 0)
        case .maxStamp: return HLC(physicalMillis: HLC.maxPhysicalMillis, logical: .max)
        case .backwards:
            return previous.map { HLC(physicalMillis: $0.physicalMillis - 1, logical: 0) }
                ?? HLC(physicalMillis: certificate.physicalMillis - 1, logical: 0)
        default: return next(after: previous, millis: wallMillis)
        }
    }

    /// `millis`, or just after `previous` if that is not later.
    private func next(after previous: HLC?, millis: UInt64) -> HLC {
        guard let previous, previous.physicalMillis >= millis else { return HLC(physicalMillis: millis, logical: 0) }
        return HLC(physicalMillis: previous.physicalMillis, logical: previous.logical &+ 1)
    }

    /// The venue's rule on a kiosk's stamps (``VenuePolicy/checkTime(_:after:certificate:ref:)``).
    private func acceptable(_ hlc: HLC, after previous: HLC?) -> Bool {
        if let previous, hlc <= previous { return false }
        return hlc >= certificate && hlc.physicalMillis <= lifetimeEnd
    }

    /// `message` as the liar shows it to kiosk `peer`: its own deltas and head from `peer`'s branch.
    func shown(_ message: SyncMessage, to peer: Int) -> SyncMessage {
        let branch = branchOf[peer]
        guard branch != 0 else { return message }
        switch message {
        case .deltas(let deltas):
            return .deltas(
                deltas.map { delta in
                    guard delta.author == author, delta.seq >= 1, delta.seq <= UInt64(branches[branch].count) else {
                        return delta
                    }
                    return branches[branch][Int(delta.seq) - 1]
                }
            )
        case .hello(let epoch, let heads): return .hello(epoch: epoch, heads: heads.map { shown($0, branch) })
        case .heads(let heads): return .heads(heads.map { shown($0, branch) })
        default: return message
        }
    }

    private func shown(_ head: AuthorHead, _ branch: Int) -> AuthorHead {
        head.author == author ? branchHead(branch, seq: head.seq) : head
    }
}
