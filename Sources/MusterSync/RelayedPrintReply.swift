public import MusterCore

/// A peer's answer to a ``RelayedPrint`` (sync message 19, 0.6.5): printed there, already printed
/// somewhere, or not printed and why.
public struct RelayedPrintReply: Sendable, Equatable, ByteCodable {
    public enum Outcome: UInt8, Sendable, Equatable, ByteEnum {
        public static let wireName = "relayed print outcome"
        /// Printed on the peer's queue, and recorded there as the attendee's badge.
        case printed = 1
        /// The reprint guard: a badge for this attendee is already recorded.
        case alreadyPrinted
        /// Not printed: the peer's printer failed too, it has none, it is busy, or it never answered.
        case notPrinted
    }

    public let id: UInt64
    public let outcome: Outcome
    /// The CUPS job on the peer's queue when printed, else 0.
    public let job: Int64
    /// What the peer said, for the staff log; never shown on the public screen.
    public let message: String

    /// Longest message kept from a peer.
    public static let maxMessage = 400

    public init(id: UInt64, outcome: Outcome, job: Int64 = 0, message: String = "") {
        self.id = id
        self.outcome = outcome
        self.job = job
        var kept = message
        while kept.utf8.count > Self.maxMessage { kept.removeLast() }
        self.message = kept
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(id)
        writer.write(outcome)
        writer.write(job)
        writer.write(message)
    }

    public init(from reader: inout ByteReader) throws(DecodeError) {
        let id: UInt64 = try reader.read()
        let outcome: Outcome = try reader.read()
        let job: Int64 = try reader.read()
        let message = try reader.readString(maxLength: Self.maxMessage)
        self.init(id: id, outcome: outcome, job: job, message: message)
    }
}
