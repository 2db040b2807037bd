import MusterCore
import MusterCrypto
import MusterSync

/// A BLAKE2b hash over every event the simulator ran, in order: the proof that a seed replays.
///
/// Each event is encoded as its time, kind, kiosks and, for a frame, its kind and the (author, seq)
/// of every delta or head it carries; the epoch string (random inside `Replica`) is left out. The
/// encodings are chained: every 64 KiB of them is hashed together with the digest so far.
final class EventLog {
    private var chain: [UInt8] = Blake2b.hash256(Array("muster-sim-event-log-v1".utf8))
    private(set) var count = 0
    /// The encodings not yet hashed into ``chain``: events are written straight into it, not each
    /// into a writer of its own (a new buffer per event was 8 % of a 50-kiosk simulation).
    private var writer = ByteWriter(capacity: flushSize + 4_096)
    private static let flushSize = 65_536

    init() {}

    private func flush(force: Bool) {
        guard force || writer.bytes.count >= Self.flushSize else { return }
        chain = Blake2b.hash256(chain + writer.bytes)
        writer = ByteWriter(capacity: Self.flushSize + 4_096)
    }

    func record(_ time: VirtualTime, _ event: SimEvent) {
        count += 1
        writer.write(UInt64(bitPattern: time))
        writer.write(event.tag)
        switch event {
        case .checkIn(let kiosk, let index): writeInts(kiosk, index)
        case .deliver(let from, let to, let session, let message):
            writeInts(from, to)
            writer.write(session)
            write(message)
        case .connect(let from, let to, let incarnation):
            writeInts(from, to)
            writer.write(incarnation)
        case .sessionLost(let kiosk, let peer, let session):
            writeInts(kiosk, peer)
            writer.write(session)
        case .timer(let kiosk, let incarnation, let timer, let generation):
            writeInts(kiosk)
            writer.write(incarnation)
            // The timer's place among the core's timers (``SyncTimer`` keeps the order stable).
            writer.write(UInt64(SyncTimer.allCases.firstIndex(of: timer) ?? 0))
            writer.write(generation)
        case .storeDone(let kiosk, let incarnation, let job):
            writeInts(kiosk)
            writer.write(incarnation)
            writer.write(job)
        case .crash(let kiosk), .restart(let kiosk), .boot(let kiosk): writeInts(kiosk)
        case .partition(let side):
            writeInts(side.count)
            for member in side { writeInts(member) }
        case .heal, .settle: break
        }
        flush(force: false)
    }

    /// Notes a value that decides what happens next without being an event (e.g. a store's answer).
    func note(_ value: UInt64) {
        writer.write(value)
        flush(force: false)
    }

    private func writeInts(_ first: Int, _ second: Int? = nil) {
        writer.write(UInt64(bitPattern: Int64(first)))
        if let second { writer.write(UInt64(bitPattern: Int64(second))) }
    }

    private func write(_ message: SyncMessage) {
        switch message {
        case .hello(_, let heads), .heads(let heads):
            writer.write(UInt8(message.isHello ? 1 : 2))
            for head in heads { writeRef(head.author, head.seq) }
        case .deltas(let deltas):
            writer.write(UInt8(3))
            for delta in deltas { writeRef(delta.author, delta.seq) }
        case .sessions(let peers):
            writer.write(UInt8(4))
            for peer in peers { writer.write(peer.leadingWord) }
        default:
            writer.write(UInt8(5))
            writer.writeRaw(message.encode().prefix(64))
        }
    }

    private func writeRef(_ author: AuthorID, _ seq: UInt64) {
        writer.write(author.leadingWord)
        writer.write(seq)
    }

    /// The hash of the whole log so far, as hex.
    var hashHex: String {
        flush(force: true)
        return Hex.encode(chain)
    }
}

extension SyncMessage {
    var isHello: Bool {
        if case .hello = self { return true }
        return false
    }
}
