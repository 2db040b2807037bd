import MusterCore
import MusterRules
import Testing

/// How a list of heads is known to name each author once without a table.
struct AuthorHeadTests {
    static func author(_ byte: UInt8) -> AuthorID { AuthorID(bytes: [UInt8](repeating: byte, count: 32))! }
    static func heads(_ bytes: [UInt8]) -> [AuthorHead] {
        bytes.map { AuthorHead(author: author($0), seq: 1, hash: [$0]) }
    }

    @Test func headsAsAKioskSendsThemNameEachAuthorOnce() {
        #expect(AuthorHead.namesEachAuthorOnce([]))
        #expect(AuthorHead.namesEachAuthorOnce(Self.heads([5])))
        #expect(AuthorHead.namesEachAuthorOnce(Self.heads([5, 1])))
        // The organizer first, wherever its key falls among the rest, then the rest by key.
        #expect(AuthorHead.namesEachAuthorOnce(Self.heads([9, 1, 2, 3])))
        #expect(AuthorHead.namesEachAuthorOnce(Self.heads([2, 1, 3, 4])))
        #expect(AuthorHead.namesEachAuthorOnce(Self.heads([0, 1, 2, 3])))
    }

    @Test func anAuthorNamedTwiceOrHeadsOutOfOrderAreNotTakenForOnce() {
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([5, 5])))
        // The first named again among the rest, at either end or inside.
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([1, 1, 2, 3])))
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([3, 1, 2, 3])))
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([2, 1, 2, 3])))
        // The rest twice, or not in order (which might hide a second naming).
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([9, 1, 2, 2])))
        #expect(!AuthorHead.namesEachAuthorOnce(Self.heads([9, 1, 3, 2])))
    }
}
