/// Cancels one earlier check-in, check-out or walk-in registration, named by (author, seq) and the
/// BLAKE2b-256 of the target's envelope. Organizer only. Undo is itself a delta, so the record of
/// what happened is never erased.
///
/// The hash makes the target the same delta on every replica even if its author forked: an undo
/// never hits the other version. `targetHash` is nil only in undos written before it existed
/// (encoded without it); those name (author, seq) alone.
public struct UndoPayload: DeltaPayload {
    public static let kind = DeltaKind.undo
    public var target: DeltaRef
    public var targetHash: [UInt8]?

    public init(target: DeltaRef, targetHash: [UInt8]? = nil) {
        precondition(targetHash.map { $0.count == Delta.hashByteCount } ?? true, "a target hash has 32 bytes")
        self.target = target
        self.targetHash = targetHash
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(target)
        if let targetHash { writer.writeRaw(targetHash) }
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let target = try reader.read(DeltaRef.self)
        self.init(target: target, targetHash: try reader.readTail(Delta.readHash(from:)))
    }
}
