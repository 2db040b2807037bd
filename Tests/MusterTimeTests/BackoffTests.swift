import MusterTime
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test func doublesUpToTheCapAndResets() {
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(2))
        let delays = (0..<6).map { _ in backoff.next() }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(250))
    }

    @Test func delayIsAFunctionOfTheFailureCount() {
        let backoff = Backoff(initial: .seconds(2), maximum: .seconds(30))
        #expect(backoff.delay(afterFailures: 0) == .zero)
        #expect(backoff.delay(afterFailures: 1) == .seconds(2))
        #expect(backoff.delay(afterFailures: 3) == .seconds(8))
        #expect(backoff.delay(afterFailures: 5) == .seconds(30))
        #expect(backoff.delay(afterFailures: 10_000) == .seconds(30))
    }
}
