import MusterCore
import MusterCrypto
import MusterRules
import MusterSim
import MusterTestSupport

/// The lies of a differential history: deltas the rules refuse, each signed on the head of one of its
/// author's branches. Some become a branch of their own that the author goes on extending, so that
/// honest-looking deltas follow a refused one.
extension DifferentialHistory {
    enum Lie: CaseIterable {
        case badSignature, brokenChain, gap, backdated, beforeCertificate, beyondLifetime, farFuture
        case wrongVenue, wrongKind, badMeaning, malformed
    }

    mutating func lie(by author: AuthorID) {
        let index = random.int(in: 0...(branches[author]!.count - 1))
        var branch = branches[author]![index]
        let lie = Lie.allCases[random.int(in: 0...(Lie.allCases.count - 1))]
        let honest = body(for: author)
        guard let delta = lieDelta(lie, body: honest, on: &branch) else { return }
        universe.append(delta)
        // A lie the chain can go on from: the author keeps writing after it on a branch of its own.
        guard [.brokenChain, .gap, .wrongVenue].contains(lie) == false, random.chance(0.4) else { return }
        branch.deltas.append(delta)
        branch.lastHLC = delta.hlc
        branches[author]!.append(branch)
    }

    /// The lying delta on `branch`'s head; `branch`'s signer moves past it when the chain can follow it.
    private mutating func lieDelta(_ lie: Lie, body: DeltaBody, on branch: inout Branch) -> SignedDelta? {
        let author = branch.signer.author
        let key = venue.key(of: author)
        let head = branch.signer.head
        var signer = branch.signer
        let stamp = stamp(after: branch.lastHLC)
        var hlc = stamp
        var signed = body
        switch lie {
        case .badSignature:
            let good = try! signer.sign(body, hlc: stamp)
            var signature = good.signature
            signature[random.int(in: 0...63)] ^= 0x40
            branch.signer = signer
            return try! SignedDelta(envelope: good.envelope, signature: signature)
        case .brokenChain:
            signer = DeltaSigner(
                venue: venue.policy.venue,
                keyPair: key,
                head: AuthorHead(author: author, seq: head.seq, hash: random.bytes(32))
            )
        case .gap:
            signer = DeltaSigner(
                venue: venue.policy.venue,
                keyPair: key,
                head: AuthorHead(author: author, seq: head.seq + 1, hash: random.bytes(32))
            )
        case .backdated:
            hlc = branch.lastHLC ?? HLC(physicalMillis: DifferentialVenue.certificateMillis - 1, logical: 0)
        case .beforeCertificate: hlc = HLC(physicalMillis: DifferentialVenue.certificateMillis - 5_000, logical: 0)
        case .beyondLifetime: hlc = HLC(physicalMillis: TestTime.start + 401 * 24 * 3_600_000, logical: 0)
        case .farFuture:
            hlc = HLC(physicalMillis: TestTime.start + clock + UInt64(random.int(in: 7...30)) * 60_000, logical: 0)
        case .wrongVenue:
            signer = DeltaSigner(venue: VenueID(bytes: random.bytes(VenueID.byteCount))!, keyPair: key, head: head)
        case .wrongKind:
            // An enrollment never belongs to a log: a certificate (seq 0) offered as a delta.
            guard author != venue.organizer else { return venue.certificate(for: venue.kiosks[random.int(in: 0...3)]) }
            signed = wrongKind(for: author)
        case .badMeaning: signed = Bodies.checkIn("c1", "Not Normal@Example.com", kiosk: "Kiosk 1")
        case .malformed: return malformed(body, hlc: stamp, on: &branch)
        }
        let delta = try? signer.sign(signed, hlc: hlc)
        if lie != .brokenChain, lie != .gap, lie != .wrongVenue { branch.signer = signer }
        return delta
    }

    /// A kind its author may not write: a kiosk's lock or revocation, a device's check-in.
    private mutating func wrongKind(for author: AuthorID) -> DeltaBody {
        if author == venue.device { return Bodies.checkIn("c1", "p1@example.com", kiosk: "Desk") }
        if random.chance(0.7) { return .lock(LockPayload(version: 99, campaignID: "c2", checkInStatus: "Attended")) }
        return .revoke(RevokePayload(kiosk: venue.kiosks[0], watermark: 0, keyGeneration: 1, sealedKeys: []))
    }

    /// A delta whose envelope carries a byte its body does not account for: it verifies, and does not decode.
    private func malformed(_ body: DeltaBody, hlc: HLC, on branch: inout Branch) -> SignedDelta? {
        let head = branch.signer.head
        let delta = Delta(
            venue: venue.policy.venue,
            author: head.author,
            seq: head.seq + 1,
            prev: head.hash,
            hlc: hlc,
            body: body
        )
        let envelope = delta.envelope() + [0x01]
        guard let signed = try? SignedDelta(envelope: envelope, signature: venue.key(of: head.author).sign(envelope))
        else { return nil }
        branch.signer = DeltaSigner(
            venue: venue.policy.venue,
            keyPair: venue.key(of: head.author),
            head: AuthorHead(author: head.author, seq: head.seq + 1, hash: Blake2b.hash256(envelope))
        )
        return signed
    }
}
