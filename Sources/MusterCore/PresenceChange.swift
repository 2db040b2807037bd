/// A check-in or a check-out: whose presence changed, and which arrivals the change ends.
///
/// Both encode alike: the ``PresencePayload``, then, only when `ends` is not nil, the list of 1 to
/// ``CheckOutPayload/maxEnds`` references. A change that ends nothing encodes as the presence
/// alone, so every change written before `ends` existed decodes alike; an empty list would be a
/// second encoding of that, so it is refused.
public protocol PresenceChange: DeltaPayload {
    var presence: PresencePayload { get }
    var ends: [DeltaRef]? { get }
    init(_ presence: PresencePayload, ends: [DeltaRef]?)
}

extension PresenceChange {
    public func encode(into writer: inout ByteWriter) {
        presence.encode(into: &writer)
        if let ends { writer.writeList(ends) }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let presence = try PresencePayload(from: &reader)
        let ends = try reader.readTail { (reader) throws(DecodeError) -> [DeltaRef] in
            try reader.readList(
                in: 1...CheckOutPayload.maxEnds,
                "a delta ends 1 to \(CheckOutPayload.maxEnds) arrivals"
            )
        }
        self.init(presence, ends: ends)
    }
}
