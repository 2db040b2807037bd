import Testing

@testable import MusterDiscovery

@Suite("Backoff")
struct BackoffTests {
    @Test func doublesUpToTheCapAndResets() {
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2))
        let delays = (0..<6).map { _ in backoff.next() }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(250))
    }
}
