public import MusterCore
public import MusterRules

/// What two kiosks say to each other inside an established, encrypted session.
///
/// Encoded with Core's canonical ``ByteWriter`` format; every decode is bounded so a hostile peer can
/// make a session fail but never the daemon.
public enum SyncMessage: Sendable, Equatable {
    /// First message of a session: the replica's epoch (a random id made when the replica was
    /// created, so a wiped and recreated kiosk is recognized) and what this side holds.
    case hello(epoch: String, heads: [AuthorHead])
    /// Periodic anti-entropy: what this side holds now. A heads message whose only head is the
    /// receiver's own chain is an acknowledgement instead (``SyncCore/requestStored(_:_:now:into:)``):
    /// the sender committed the receiver's deltas through that seq. A receiver merges it into what it
    /// knows of the sender; a kiosk of 0.6.4 or earlier reads it as heads, which only makes it send
    /// the sender a few copies it holds until the next anti-entropy round.
    case heads([AuthorHead])
    /// Consecutive deltas, grouped by author, each author's run in seq order.
    case deltas([SignedDelta])
    case ping
    case pong
    /// The very first message each side sends: its enrollment certificate (see ``EnrollPayload``).
    /// A session goes no further until the peer's certificate checks out against the roster.
    case credentials(SignedDelta)
    /// Enrollment certificates this side knows, so a peer learns new kiosks before their deltas.
    case roster([SignedDelta])
    /// Sent to a revoked kiosk instead of a session: the organizer's signed revocation naming it.
    case revoked(SignedDelta)
    /// The sender's state digest, sent with its heads, so `muster status` can say whether two
    /// kiosks agree.
    case digest(String)
    /// The kiosks the sender is in session with now, sent whenever that changes. A kiosk does not
    /// relay what it heard from one of them to the sender: that kiosk pushes its news to every
    /// session itself, so on a full mesh nothing is relayed and every delta crosses each link once.
    case sessions([AuthorID])
    /// Repair by pull: send me these ranges. A lagging kiosk asks one peer per author range, so no two
    /// peers send it the same deltas (tag 11).
    case want([SeqRange])
    /// Plumtree's GRAFT: send me these ranges, and push new deltas to me eagerly from now on (tag 12).
    case graft([SeqRange])
    /// Plumtree's PRUNE: a copy arrived by eager push; announce new deltas to me lazily instead (tag 13).
    case prune
    /// Plumtree's IHAVE: lazy announcement of deltas the sender holds (tag 14).
    case ihave([SeqRange])
    /// The only thing said in a session under a retired network key (``NetworkKeyRing``): the signed
    /// revocations that sealed the newer keys to the peer, so it can open them and dial again (tag 15).
    case rekey([SignedDelta])
    /// Also said in a session under a retired key, after ``rekey(_:)``: the current network key of
    /// `generation`, sealed by the sender to the peer's own key, once the peer's certificate was
    /// admitted and is not revoked (tag 16). It reaches a kiosk that no revocation sealed it to (one
    /// revoked when it was rotated and taken back since, or one enrolled before a rotation and first
    /// started after it). Any holder of the key may hand it over; a false key only fails to dial.
    case networkKey(generation: UInt64, sealed: [UInt8])
    /// Kiosks' signed reports of themselves (``KioskStatus``): software, what they read, printer, free
    /// disk (tag 17, 0.6.5). Sent only to a peer that showed it reads it (``FleetStatuses``).
    case status([SignedKioskStatus])
    /// Print this self-service badge on your printer, mine cannot (``RelayedPrint``; tag 18, 0.6.5). Sent
    /// only to a peer that showed it reads 0.6.5's messages (``FleetStatuses``).
    case printRequest(RelayedPrint)
    /// The answer to a ``printRequest(_:)`` (``RelayedPrintReply``; tag 19, 0.6.5).
    case printReply(RelayedPrintReply)
    /// A message of a later version, its tag unknown here: read whole (its frame bounds it) and
    /// ignored, so a newer kiosk can say new things in a session without an older one closing it (a
    /// 0.6.3 kiosk closes the session on any tag it does not know). Never sent; kept as read so that it
    /// re-encodes to the same bytes.
    case unknown(tag: UInt8, body: [UInt8])

    public static let maxHeads = 100_000
    public static let maxDeltas = 2_000
    public static let maxCertificates = 1_000
    public static let maxSessions = 1_000
    public static let maxRanges = 10_000

    enum Tag: UInt8, ByteEnum {
        static let wireName = "sync message"

        case hello = 1, heads, deltas, ping, pong, credentials, roster, revoked, digest, sessions
        case want, graft, prune, ihave, rekey, networkKey, status, printRequest, printReply

        /// Tags above this one are a later version's (``SyncMessage/unknown(tag:body:)``); 0 is none.
        static let newest = Tag.printReply
    }

    public func encode() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .hello(let epoch, let heads):
            writer.write(Tag.hello, epoch)
            writer.writeList(heads)
        case .heads(let heads): writer.write(Tag.heads, list: heads)
        case .deltas(let deltas): writer.write(Tag.deltas, list: deltas)
        case .ping: writer.write(Tag.ping)
        case .pong: writer.write(Tag.pong)
        case .credentials(let certificate): writer.write(Tag.credentials, certificate)
        case .roster(let certificates): writer.write(Tag.roster, list: certificates)
        case .revoked(let evidence): writer.write(Tag.revoked, evidence)
        case .digest(let digest): writer.write(Tag.digest, digest)
        case .sessions(let peers): writer.write(Tag.sessions, list: peers)
        case .want(let ranges): writer.write(Tag.want, list: ranges)
        case .graft(let ranges): writer.write(Tag.graft, list: ranges)
        case .prune: writer.write(Tag.prune)
        case .ihave(let ranges): writer.write(Tag.ihave, list: ranges)
        case .rekey(let revocations): writer.write(Tag.rekey, list: revocations)
        case .networkKey(let generation, let sealed):
            writer.write(Tag.networkKey, generation)
            writer.writeRaw(sealed)
        case .status(let statuses): writer.write(Tag.status, list: statuses)
        case .printRequest(let request): writer.write(Tag.printRequest, request)
        case .printReply(let reply): writer.write(Tag.printReply, reply)
        case .unknown(let tag, let body):
            writer.write(tag)
            writer.writeRaw(body)
        }
        return writer.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> SyncMessage {
        var reader = ByteReader(bytes)
        let message: SyncMessage
        let raw = try reader.readUInt8()
        guard let tag = Tag(rawValue: raw) else {
            guard raw > Tag.newest.rawValue else { throw .invalidValue(at: 0, "sync message tag \(raw)") }
            return .unknown(tag: raw, body: try reader.readRaw(count: reader.remaining))
        }
        switch tag {
        case .hello:
            let epoch = try reader.readString(maxLength: 64)
            message = .hello(epoch: epoch, heads: try reader.readList(in: 0...maxHeads, "too many heads"))
        case .heads: message = .heads(try reader.readList(in: 0...maxHeads, "too many heads"))
        case .deltas: message = .deltas(try reader.readList(in: 0...maxDeltas, "too many deltas in one message"))
        case .ping: message = .ping
        case .pong: message = .pong
        case .credentials: message = .credentials(try reader.read())
        case .roster: message = .roster(try reader.readList(in: 0...maxCertificates, "too many certificates"))
        case .revoked: message = .revoked(try reader.read())
        case .digest: message = .digest(try reader.readString(maxLength: 128))
        case .sessions: message = .sessions(try reader.readList(in: 0...maxSessions, "too many sessions"))
        case .want: message = .want(try reader.readList(in: 0...maxRanges, "too many ranges"))
        case .graft: message = .graft(try reader.readList(in: 0...maxRanges, "too many ranges"))
        case .prune: message = .prune
        case .ihave: message = .ihave(try reader.readList(in: 0...maxRanges, "too many ranges"))
        case .rekey: message = .rekey(try reader.readList(in: 0...maxCertificates, "too many revocations"))
        case .status:
            message = .status(try reader.readList(in: 0...FleetStatuses.maxKiosks, "too many statuses"))
        case .printRequest: message = .printRequest(try reader.read())
        case .printReply: message = .printReply(try reader.read())
        case .networkKey:
            let generation: UInt64 = try reader.read()
            message = .networkKey(
                generation: generation,
                sealed: try reader.readRaw(count: RevokePayload.sealedKeyByteCount)
            )
        }
        try reader.expectEnd()
        return message
    }
}

extension ByteWriter {
    /// A message's tag, then its one field: a list.
    fileprivate mutating func write(_ tag: SyncMessage.Tag, list: [some ByteCodable]) {
        write(tag)
        writeList(list)
    }
}

/// The author's key, raw, then the two seqs: how `want`, `graft` and `ihave` name a range.
extension SeqRange: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        writer.write(author, after, through)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let author: AuthorID = try reader.read()
        let after: UInt64 = try reader.read()
        let through: UInt64 = try reader.read()
        guard through >= after else { throw .invalidValue(at: reader.offset, "range ends before it starts") }
        self.init(author: author, after: after, through: through)
    }
}
