extension DeltaRef {
    /// Writes a non-empty list of references (the arrivals a check-out or check-in ends).
    static func encode(_ refs: [DeltaRef], into writer: inout ByteWriter) {
        writer.writeVarint(UInt64(refs.count))
        for ref in refs {
            writer.writeRaw(ref.author.bytes)
            writer.write(ref.seq)
        }
    }

    /// Reads a list written by ``encode(_:into:)``: 1 to `max` references. At least one, because an
    /// empty list would be a second encoding of "ends nothing" next to no list at all.
    static func decodeList(from reader: inout ByteReader, max: Int) throws(DecodeError) -> [DeltaRef] {
        let countOffset = reader.offset
        let count = try reader.readVarint()
        guard count >= 1, count <= UInt64(max) else {
            throw .invalidValue(at: countOffset, "a delta ends 1 to \(max) arrivals")
        }
        var refs: [DeltaRef] = []
        for _ in 0..<count {
            let offset = reader.offset
            guard let author = AuthorID(bytes: try reader.readRaw(count: AuthorID.byteCount)) else {
                throw .invalidValue(at: offset, "bad author")
            }
            refs.append(DeltaRef(author: author, seq: try reader.readUInt64()))
        }
        return refs
    }
}
