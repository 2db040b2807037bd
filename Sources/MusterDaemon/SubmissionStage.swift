public import MusterCore

/// The organizer's signed deltas held on one control connection until the `submit` that applies them all.
///
/// An import can be larger than one control request (8 MiB), yet must become visible all at once or not at all:
/// `muster` stages it in requests of a few hundred deltas, and the last request applies the stage and its own
/// deltas in one transaction. The stage belongs to the connection, so a client that goes away leaves nothing
/// behind, and nothing staged is ever visible or published. It is bounded, so a client cannot make the daemon
/// hold more than the largest import (`AttendeeListLimits.standard`: 64 MiB, 250,000 rows) needs.
public struct SubmissionStage: Sendable {
    /// Most deltas held at once: the largest import (250,000 attendees and the campaign) with room to spare.
    public static let maximumDeltas = 300_000
    /// Most envelope bytes held at once: a 64 MiB file grows by the delta headers and signatures of its rows.
    public static let maximumBytes = 256 * 1024 * 1024

    public private(set) var deltas: [SignedDelta] = []
    /// Envelope and signature bytes held.
    public private(set) var bytes = 0

    public init() {}

    public var count: Int { deltas.count }

    /// Holds `more` after what is staged; refuses (and keeps nothing more) past the bounds.
    mutating func add(_ more: [SignedDelta]) throws(ControlHandler.RequestError) {
        let addedBytes = more.reduce(0) { $0 + $1.envelope.count + $1.signature.count }
        guard deltas.count + more.count <= Self.maximumDeltas, bytes + addedBytes <= Self.maximumBytes else {
            throw ControlHandler.RequestError(
                "a staged submission may hold at most \(Self.maximumDeltas) deltas and "
                    + "\(Self.maximumBytes / 1_048_576) MiB; nothing was applied"
            )
        }
        deltas.append(contentsOf: more)
        bytes += addedBytes
    }

    /// Everything staged, leaving the stage empty.
    mutating func take() -> [SignedDelta] {
        defer {
            deltas = []
            bytes = 0
        }
        return deltas
    }
}
