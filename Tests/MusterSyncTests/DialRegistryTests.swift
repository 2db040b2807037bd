import MusterCore
import Synchronization
import Testing

@testable import MusterSync

/// A dial loop's pause: long while its address has a session or is not wanted, ended at once when
/// that changes.
@Suite(.timeLimit(.minutes(1)))
struct DialRegistryTests {
    /// A sleep that only ends by cancellation: a pause that returns was ended by something else.
    static let forever: @Sendable (Duration) async -> Void = { _ in try? await Task.sleep(for: .seconds(3_600)) }

    static let first = HostPort(host: "10.0.0.2", port: 7420)
    static let second = HostPort(host: "10.0.0.3", port: 7420)

    static func waitUntilPausing(_ registry: DialRegistry, _ address: HostPort) async throws {
        while !registry.isPausing(address) { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func aPauseLastsItsSleepWhenNothingWakesIt() async {
        let registry = DialRegistry()
        #expect(registry.begin(Self.first, maxFailures: nil, onEnd: nil))
        let slept = Mutex<[Duration]>([])
        await registry.pause(Self.first, for: .seconds(5)) { delay in slept.withLock { $0.append(delay) } }
        #expect(slept.withLock { $0 } == [.seconds(5)])
        #expect(!registry.isPausing(Self.first))
    }

    @Test func wakingEndsAPauseUnderWay() async throws {
        let registry = DialRegistry()
        _ = registry.begin(Self.first, maxFailures: nil, onEnd: nil)
        async let paused: Void = registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        try await Self.waitUntilPausing(registry, Self.first)
        registry.wake(Self.first)
        await paused
        #expect(!registry.isPausing(Self.first))
    }

    /// The core asks for a session (or discovery announces the address again) while the loop is
    /// dialing, not pausing: its next pause ends at once, and only that one.
    @Test func aWakeBeforeThePauseEndsTheNextPauseOnly() async throws {
        let registry = DialRegistry()
        _ = registry.begin(Self.first, maxFailures: nil, onEnd: nil)
        #expect(!registry.begin(Self.first, maxFailures: nil, onEnd: nil))
        await registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        async let second: Void = registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        try await Self.waitUntilPausing(registry, Self.first)
        registry.wake(Self.first)
        await second
    }

    @Test func askingForARunningLoopEndsItsPause() async throws {
        let registry = DialRegistry()
        _ = registry.begin(Self.first, maxFailures: 8, onEnd: nil)
        async let paused: Void = registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        try await Self.waitUntilPausing(registry, Self.first)
        #expect(!registry.begin(Self.first, maxFailures: 8, onEnd: nil))
        await paused
    }

    /// Shutting down ends the loop while it pauses: the pause ends, and the owner is told once.
    @Test func endingTheLoopEndsItsPause() async throws {
        let registry = DialRegistry()
        let ends = Mutex<[DialEnd]>([])
        _ = registry.begin(Self.first, maxFailures: nil) { why in ends.withLock { $0.append(why) } }
        async let paused: Void = registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        try await Self.waitUntilPausing(registry, Self.first)
        registry.ended(Self.first, .shutdown)
        await paused
        #expect(ends.withLock { $0 } == [.shutdown])
        #expect(registry.count == 0)
    }

    /// Waking one address leaves the others' pauses alone.
    @Test func wakingIsPerAddress() async throws {
        let registry = DialRegistry()
        _ = registry.begin(Self.first, maxFailures: nil, onEnd: nil)
        _ = registry.begin(Self.second, maxFailures: nil, onEnd: nil)
        let other = Task { await registry.pause(Self.second, for: .seconds(3_600), sleep: Self.forever) }
        async let paused: Void = registry.pause(Self.first, for: .seconds(3_600), sleep: Self.forever)
        try await Self.waitUntilPausing(registry, Self.first)
        try await Self.waitUntilPausing(registry, Self.second)
        registry.wake(Self.first)
        await paused
        #expect(registry.isPausing(Self.second))
        registry.wake(Self.second)
        await other.value
    }
}
