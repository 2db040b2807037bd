/// The body of one kind of delta: its canonical encoding and its decoding.
public protocol DeltaPayload: ByteCodable, Sendable, Equatable {
    static var kind: DeltaKind { get }
}
