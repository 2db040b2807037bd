/// The body of one kind of delta: its canonical encoding and its decoding.
public protocol DeltaPayload: Sendable, Equatable {
    static var kind: DeltaKind { get }
    func encode(into writer: inout ByteWriter)
    init(from reader: inout ByteReader) throws(DecodeError)
}
