/// The envelope as a blob, then the raw signature: how a delta travels inside a sync message and a
/// join bundle. Decoding checks the shape (``SignedDelta/init(envelope:signature:)``), not the signature.
extension SignedDelta: ByteCodable {
    /// Largest envelope a signed delta may carry: the largest body and room for its header.
    public static let maxEnvelopeBytes = Limits.maxBodyBytes + 256

    /// Largest encoding of one signed delta (the envelope's varint length, the envelope, the
    /// signature): what a peer may send as its credentials before it is trusted with more.
    public static let maxEncodedBytes: Int = {
        var length = ByteWriter()
        length.writeVarint(UInt64(maxEnvelopeBytes))
        return length.bytes.count + maxEnvelopeBytes + signatureByteCount
    }()

    public func encode(into writer: inout ByteWriter) {
        writer.writeBlob(envelope)
        writer.writeRaw(signature)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let envelope = try reader.readBlob(maxLength: Self.maxEnvelopeBytes)
        let signature = try reader.readRaw(count: Self.signatureByteCount)
        try self.init(envelope: envelope, signature: signature)
    }
}
