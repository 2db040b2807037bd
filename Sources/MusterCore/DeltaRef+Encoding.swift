/// The author's key, raw, then the seq: how undos name their target and check-ins and check-outs
/// the arrivals they end.
extension DeltaRef: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        writer.write(author, seq)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        self.init(author: try reader.read(), seq: try reader.read())
    }
}
