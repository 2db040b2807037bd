import Testing

@testable import MusterSync

/// The rule both the daemon's driver and the simulator cut group commits by.
@Suite struct GroupCommitTests {
    @Test func takesTheOldestBatchesThatFitAndAtLeastOne() {
        #expect(GroupCommit.size(of: [3, 4, 2, 1], limit: 9) { $0 } == 3)
        #expect(GroupCommit.size(of: [3, 4, 2], limit: 10) { $0 } == 3)
        // Stops at the first batch that does not fit, though a later one would.
        #expect(GroupCommit.size(of: [5, 6, 1], limit: 10) { $0 } == 1)
        // A batch larger than the limit is a group of its own.
        #expect(GroupCommit.size(of: [12, 1], limit: 10) { $0 } == 1)
        #expect(GroupCommit.size(of: [Int](), limit: 10) { $0 } == 0)
        #expect(GroupCommit.size(of: Array(repeating: 1, count: 5_000)) { $0 } == SyncLimits.groupCommitDeltas)
    }
}
