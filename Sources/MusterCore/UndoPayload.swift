/// Cancels one earlier check-in, check-out or walk-in registration, named by (author, seq).
/// Organizer only. Undo is itself a delta, so the record of what happened is never erased.
public struct UndoPayload: DeltaPayload {
    public static let kind = DeltaKind.undo
    public var target: DeltaRef

    public init(target: DeltaRef) { self.target = target }

    public func encode(into writer: inout ByteWriter) {
        writer.writeRaw(target.author.bytes)
        writer.write(target.seq)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let start = reader.offset
        guard let author = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount)) else {
            throw .invalidValue(at: start, "bad author")
        }
        target = DeltaRef(author: author, seq: try reader.readUInt64())
    }
}
