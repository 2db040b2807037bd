import MusterCore
import MusterRules
import Testing

@testable import MusterSync

/// Peers' reports of our own chain: written when they move, at most once per interval per peer, and
/// none lost (the newest waiting one is handed over).
struct HeldElsewhereReportsTests {
    static let peer = AuthorID(bytes: [UInt8](repeating: 7, count: 32))!
    static let other = AuthorID(bytes: [UInt8](repeating: 9, count: 32))!
    static let me = AuthorID(bytes: [UInt8](repeating: 1, count: 32))!

    static func head(_ seq: UInt64) -> AuthorHead { AuthorHead(author: me, seq: seq, hash: [UInt8(seq)]) }

    @Test func aReportIsWrittenOncePerIntervalAndTheNewestWaits() {
        var reports = HeldElsewhereReports(interval: .seconds(2))
        #expect(reports.heard(Self.head(1), from: Self.peer, now: .seconds(10)) == Self.head(1))
        reports.written(Self.head(1), by: Self.peer, now: .seconds(10))
        // Within the interval: nothing written, the newest waits.
        #expect(reports.heard(Self.head(2), from: Self.peer, now: .seconds(11)) == nil)
        #expect(reports.heard(Self.head(3), from: Self.peer, now: .milliseconds(11_500)) == nil)
        // Another peer has its own interval.
        #expect(reports.heard(Self.head(3), from: Self.other, now: .milliseconds(11_500)) == Self.head(3))
        // Nothing newer than what waits or was written: nothing to do.
        #expect(reports.heard(Self.head(1), from: Self.peer, now: .seconds(20)) == nil)
        let pending = reports.takePending()
        #expect(pending.count == 1)
        #expect(pending.first?.peer == Self.peer)
        #expect(pending.first?.head == Self.head(3))
        #expect(reports.takePending().isEmpty)
    }

    /// The head that waits is written when the peer repeats it after the interval: an acknowledgement
    /// came within the interval of the last write, and the peer's later heads only repeat it. (It
    /// waited until the kiosk stopped, and "saved here only" never cleared.)
    @Test func aWaitingHeadRepeatedAfterTheIntervalIsWritten() {
        var reports = HeldElsewhereReports(interval: .seconds(2))
        _ = reports.heard(Self.head(1), from: Self.peer, now: .seconds(10))
        reports.written(Self.head(1), by: Self.peer, now: .seconds(10))
        #expect(reports.heard(Self.head(2), from: Self.peer, now: .milliseconds(10_500)) == nil)
        #expect(reports.heard(Self.head(2), from: Self.peer, now: .seconds(11)) == nil, "still within the interval")
        #expect(reports.heard(Self.head(2), from: Self.peer, now: .seconds(15)) == Self.head(2))
        reports.written(Self.head(2), by: Self.peer, now: .seconds(15))
        #expect(reports.takePending().isEmpty)
    }

    /// The head that waits is due when its interval ends, once: the driver writes it then.
    @Test func aWaitingHeadIsDueAtTheEndOfItsInterval() {
        var reports = HeldElsewhereReports(interval: .seconds(2))
        #expect(reports.flushAt(Self.peer) == nil, "nothing waits")
        _ = reports.heard(Self.head(1), from: Self.peer, now: .seconds(10))
        reports.written(Self.head(1), by: Self.peer, now: .seconds(10))
        _ = reports.heard(Self.head(2), from: Self.peer, now: .milliseconds(10_500))
        #expect(reports.flushAt(Self.peer) == .seconds(12))
        _ = reports.heard(Self.head(3), from: Self.peer, now: .seconds(11))
        #expect(reports.flushAt(Self.peer) == nil, "one write is due already")
        #expect(reports.takeDue(Self.peer) == Self.head(3), "the newest waiting")
        #expect(reports.takeDue(Self.peer) == nil)
        #expect(reports.takePending().isEmpty)
    }

    @Test func afterTheIntervalTheNextReportIsWrittenAtOnce() {
        var reports = HeldElsewhereReports(interval: .seconds(2))
        _ = reports.heard(Self.head(1), from: Self.peer, now: .seconds(10))
        reports.written(Self.head(1), by: Self.peer, now: .seconds(10))
        #expect(reports.heard(Self.head(2), from: Self.peer, now: .seconds(11)) == nil)
        #expect(reports.heard(Self.head(4), from: Self.peer, now: .seconds(12)) == Self.head(4))
        reports.written(Self.head(4), by: Self.peer, now: .seconds(12))
        // What waited is older than what was written: nothing left.
        #expect(reports.takePending().isEmpty)
    }

    @Test func aFailedWriteDoesNotHoldBackTheNextReport() {
        var reports = HeldElsewhereReports(interval: .seconds(2))
        #expect(reports.heard(Self.head(5), from: Self.peer, now: .seconds(10)) == Self.head(5))
        // Not written (the peer's delta at 5 was not ours): the next report goes out at once.
        #expect(reports.heard(Self.head(6), from: Self.peer, now: .milliseconds(10_100)) == Self.head(6))
    }
}
