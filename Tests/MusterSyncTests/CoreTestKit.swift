import MusterCore
import MusterCrypto
import MusterRules
import MusterTestSupport

@testable import MusterSync

/// Builders for the core's tests: signed logs and cores with real keys, no sockets.
enum CoreTestKit {
    static let venue = VenueID.random()

    static func key() throws -> SigningKeyPair { try SigningKeyPair.generate() }
    static func id() throws -> AuthorID { AuthorID(try key().publicKey) }

    /// `count` notes signed by `key`, seq 1…count, stamped 1 001, 1 002, … ms.
    static func log(_ count: Int, key: SigningKeyPair) -> [SignedDelta] {
        var signer = DeltaSigner(venue: venue, startingLogOf: key)
        let notes = (1...count).map {
            DeltaBody.note(NotePayload(campaignID: "c", attendeeKey: "a@example.com", text: "n\($0)"))
        }
        do {
            return try signer.sign(notes, fromMillis: 1_001)
        } catch {
            // A short note always fits; a failure here is a broken test kit.
            preconditionFailure("test note cannot be signed: \(error)")
        }
    }

    static func head(_ deltas: [SignedDelta]) -> AuthorHead {
        AuthorHead(author: deltas.last!.author, seq: deltas.last!.seq, hash: Blake2b.hash256(deltas.last!.envelope))
    }

    static func core(
        _ me: AuthorID,
        heads: [AuthorHead] = [],
        seed: UInt64 = 1,
        _ adjust: (inout SyncCore.Configuration) -> Void = { _ in }
    ) -> SyncCore {
        var configuration = SyncCore.Configuration(me: me, epoch: "epoch-\(me.short)")
        adjust(&configuration)
        return SyncCore(configuration: configuration, heads: heads, seed: seed)
    }
}

extension Array where Element == SyncOutput {
    /// The messages sent to `peer`, in order.
    func messages(to peer: AuthorID) -> [SyncMessage] {
        compactMap { if case .send(peer, let message) = $0 { message } else { nil } }
    }
    var wants: [(AuthorID, [SeqRange])] {
        compactMap { if case .send(let peer, .want(let ranges)) = $0 { (peer, ranges) } else { nil } }
    }
    var ranges: [(AuthorID, SeqRange)] {
        compactMap { if case .sendRange(let peer, let range) = $0 { (peer, range) } else { nil } }
    }
    var stores: [StoreGroup] { compactMap { if case .store(let group) = $0 { group } else { nil } } }
    var closes: [(AuthorID, SyncOutput.CloseReason)] {
        compactMap { if case .closeSession(let peer, let reason) = $0 { (peer, reason) } else { nil } }
    }
    var opens: [AuthorID] { compactMap { if case .openSession(let peer) = $0 { peer } else { nil } } }
}

extension SyncCore {
    /// Opens a session this core initiated to each of `peers` and, with `hello`, takes each peer's
    /// hello announcing those heads; what the core sends in answer is dropped.
    /// Tells the core of each of `kiosks`, as discovery would; what it answers is dropped.
    /// `count` new kiosks, each told to the core as discovery would.
    mutating func discoverNew(_ count: Int, now: Duration) throws -> [AuthorID] {
        let kiosks = try (0..<count).map { _ in try CoreTestKit.id() }
        discover(kiosks, now: now)
        return kiosks
    }

    mutating func discover(_ kiosks: some Sequence<AuthorID>, now: Duration) {
        for kiosk in kiosks { _ = handle(.peerDiscovered(kiosk), now: now) }
    }

    mutating func open(_ peers: [AuthorID], hello heads: [AuthorHead]? = nil, now: Duration) {
        for peer in peers {
            _ = handle(.sessionOpened(peer: peer, initiator: me), now: now)
            if let heads { _ = handle(.frameReceived(from: peer, .hello(epoch: "e", heads: heads)), now: now) }
        }
    }
}
