import Foundation

/// One kiosk's commit trace (`MUSTER_COMMIT_TRACE`): for each delta, when it was committed there.
///
/// Lines are `<author-hex> <seq> <CLOCK_MONOTONIC ns> local|remote`; a delta traced twice (it cannot
/// be, but a trace outlives a daemon restart) keeps its first time.
struct CommitTraceReader {
    struct Key: Hashable {
        let author: String
        let seq: UInt64
    }

    struct Entry {
        let nanos: UInt64
        let local: Bool
    }

    private(set) var entries: [Key: Entry] = [:]
    /// The newest commit time in the trace.
    private(set) var last: UInt64 = 0

    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        entries.reserveCapacity(data.count / 90)
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 4, let seq = UInt64(String(decoding: fields[1], as: UTF8.self)),
                let nanos = UInt64(String(decoding: fields[2], as: UTF8.self))
            else { continue }
            let key = Key(author: String(decoding: fields[0], as: UTF8.self), seq: seq)
            if entries[key] == nil {
                entries[key] = Entry(nanos: nanos, local: fields[3].elementsEqual("local".utf8))
            }
            last = max(last, nanos)
        }
    }

    var count: Int { entries.count }

    subscript(author: String, seq: UInt64) -> Entry? { entries[Key(author: author, seq: seq)] }

    /// This kiosk's own deltas committed at or after `since`, in seq order.
    func local(author: String, since: UInt64) -> [(key: Key, nanos: UInt64)] {
        entries.filter { $0.key.author == author && $0.value.local && $0.value.nanos >= since }
            .map { ($0.key, $0.value.nanos) }.sorted { $0.key.seq < $1.key.seq }
    }
}
