import MusterCore
import Testing

@testable import MusterSync

/// Crossed dials: both ends keep the same connection, the one the lower key dialed.
struct SessionPairTests {
    @Test func bothEndsKeepTheConnectionTheLowerKeyDialed() throws {
        let x = try CoreTestKit.id()
        let y = try CoreTestKit.id()
        let (low, high) = x < y ? (x, y) : (y, x)
        // The lower key's connection completes second: it replaces the other, at either end.
        #expect(SessionPair.keepsNewcomer(dialedBy: low, over: high, between: low, high))
        #expect(SessionPair.keepsNewcomer(dialedBy: low, over: high, between: high, low))
        // The higher key's connection completes second: it is closed, at either end.
        #expect(!SessionPair.keepsNewcomer(dialedBy: high, over: low, between: low, high))
        #expect(!SessionPair.keepsNewcomer(dialedBy: high, over: low, between: high, low))
        // A redial by the same kiosk never replaces its own live session.
        #expect(!SessionPair.keepsNewcomer(dialedBy: low, over: low, between: low, high))
        #expect(!SessionPair.keepsNewcomer(dialedBy: high, over: high, between: low, high))
    }
}
