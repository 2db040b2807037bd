import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterTestSupport

/// What the authors of a differential history sign: honest writes, forks and revocations.
extension DifferentialHistory {
    /// The next stamp of a branch: the history's clock, after the branch's last.
    func stamp(after last: HLC?) -> HLC {
        let now = HLC(physicalMillis: TestTime.start + clock, logical: 0)
        guard let last, last >= now else { return now }
        return HLC(packed: last.packed + 1)
    }

    /// Signs `body` on `author`'s branch `index` and adds it to the branch and to what was signed.
    @discardableResult
    mutating func sign(_ body: DeltaBody, by author: AuthorID, on index: Int, hlc: HLC? = nil) -> SignedDelta {
        var branch = branches[author]![index]
        let delta = try! branch.signer.sign(body, hlc: hlc ?? stamp(after: branch.lastHLC))
        branch.deltas.append(delta)
        branch.lastHLC = delta.hlc
        branches[author]![index] = branch
        universe.append(delta)
        return delta
    }

    /// What `author` writes honestly: kiosks check people in and out, the organizer and its device
    /// lock the campaign or create one.
    mutating func body(for author: AuthorID) -> DeltaBody {
        if venue.kiosks.contains(author) {
            let key = "p\(random.int(in: 0...19))@example.com"
            let name = "Kiosk \(venue.kiosks.firstIndex(of: author)! + 1)"
            return random.chance(0.8) ? Bodies.checkIn("c1", key, kiosk: name) : Bodies.checkOut("c1", key, kiosk: name)
        }
        if random.chance(0.3) { return .campaign(CampaignPayload(campaignID: "c\(random.int(in: 1...3))", name: "c")) }
        lockVersion += 1
        return .lock(LockPayload(version: lockVersion, campaignID: "c1", checkInStatus: "Attended"))
    }

    /// One to four honest deltas on one of `author`'s branches.
    mutating func write(by author: AuthorID) {
        let index = random.int(in: 0...(branches[author]!.count - 1))
        for _ in 0..<random.int(in: 1...4) {
            let next = body(for: author)
            sign(next, by: author, on: index)
        }
    }

    /// A second version of a seq `author` signed: a new branch from a point of one of its branches, with
    /// one to three deltas. The first is stamped anywhere after its parent, so an organizer's version
    /// may beat the one signed first or not.
    mutating func fork(_ author: AuthorID) {
        let from = branches[author]![random.int(in: 0...(branches[author]!.count - 1))]
        guard !from.deltas.isEmpty else { return }
        let cut = random.int(in: 0...(from.deltas.count - 1))
        let kept = Array(from.deltas.prefix(cut))
        let head =
            kept.last.map { AuthorHead(author: author, seq: $0.seq, hash: Blake2b.hash256($0.envelope)) }
            ?? .empty(author)
        let signer = DeltaSigner(venue: venue.policy.venue, keyPair: venue.key(of: author), head: head)
        branches[author]!.append(Branch(deltas: kept, signer: signer, lastHLC: kept.last?.hlc))
        let index = branches[author]!.count - 1
        let floor = (kept.last?.hlc.physicalMillis ?? TestTime.start) + 1
        let ceiling = max(floor, TestTime.start + clock)
        let first = HLC(physicalMillis: UInt64(random.int64(in: Int64(floor)...Int64(ceiling))), logical: 0)
        let next = body(for: author)
        sign(next, by: author, on: index, hlc: first)
        for _ in 0..<random.int(in: 0...2) {
            let next = body(for: author)
            sign(next, by: author, on: index)
        }
    }

    /// The organizer (or its device) revokes a kiosk, the device or the organizer key, after a
    /// watermark on one of the target's branches, naming the delta there by its hash, by none, or by
    /// a wrong one.
    mutating func revoke() {
        let revoker = random.chance(0.7) ? venue.organizer : venue.device
        let target = random.chance(0.8) ? venue.kiosks[random.int(in: 0...3)] : pickAuthor()
        let line = branches[target]![random.int(in: 0...(branches[target]!.count - 1))].deltas
        let watermark = random.int(in: 0...line.count)
        var hash: [UInt8]?
        if watermark > 0 {
            switch random.int(in: 0...4) {
            case 0: hash = nil
            case 1: hash = random.bytes(Delta.hashByteCount)
            default: hash = Blake2b.hash256(line[watermark - 1].envelope)
            }
        }
        let payload = RevokePayload(
            kiosk: target,
            watermark: UInt64(watermark),
            keyGeneration: UInt64(random.int(in: 1...3)),
            sealedKeys: [],
            watermarkHash: hash
        )
        sign(.revoke(payload), by: revoker, on: random.int(in: 0...(branches[revoker]!.count - 1)))
    }
}
