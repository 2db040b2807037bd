/// The envelope as a blob, then the raw signature: how a delta travels inside a sync message and a
/// join bundle. Decoding checks the shape (``SignedDelta/init(envelope:signature:)``), not the signature.
extension SignedDelta: ByteCodable {
    public func encode(into writer: inout ByteWriter) {
        writer.writeBlob(envelope)
        writer.writeRaw(signature)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let envelope = try reader.readBlob(maxLength: Limits.maxBodyBytes + 256)
        let signature = try reader.readRaw(count: Self.signatureByteCount)
        try self.init(envelope: envelope, signature: signature)
    }
}
