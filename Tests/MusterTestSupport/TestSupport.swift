import Foundation
public import Logging
public import ServiceLifecycle
public import ServiceLifecycleTestKit

/// The one test kit: what every test target shares, so that no target grows its own copy.
///
/// ## Topics
///
/// - Files: ``TemporaryDirectory`` (and ``withTemporaryDirectory(_:)``), ``FilePermissions``.
/// - Builders: ``TestVenue`` (keys, signers, replicas, certificates), ``Bodies`` (attendees,
///   check-ins, walk-ins), `DeltaSigner(venue:startingLogOf:)` and `sign(_:fromMillis:)`,
///   `AttendeeSummary.sample(...)`, `WireDelta(_:)`, ``Adjustable`` (`ScreenOptions().with(...)`),
///   ``HostileAttendeeFile``.
/// - Time: ``TestTime`` (the test day) and the re-exported `ManualClock`.
/// - Sockets and processes: ``RawSocket``, ``UnixSocketAddress``, ``ToolRun``, ``PrivateCups``,
///   ``VirtualPrinter``, ``LoopbackPrinter``.
/// - Concurrency: ``blocking(_:)``, ``finishes(_:within:)``, ``withGracefulShutdown(running:_:)``
///   (service-lifecycle's `testGracefulShutdown`), ``Locked``.
/// - Failures: ``TestFailure``, ``thrownError(_:)``.
public enum TestSupport {
    /// A logger that drops everything, for code under test that wants one.
    public static let quietLogger = Logger(label: "muster-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A Python client for `python3 -c`: connects to the Unix socket `argv[1]`, sends each further
    /// argument as a request line on that one connection and prints each answer line. Run under
    /// `setpriv`, the process that connects is exactly the user the test chose.
    public static let controlLineClient = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        f = s.makefile("rwb")
        for line in sys.argv[2:]:
            f.write(line.encode() + b"\\n"); f.flush()
            sys.stdout.write(f.readline().decode())
        """

    /// Runs blocking socket code, or seconds of CPU, on a plain thread, never on the cooperative
    /// pool that the code under test needs: on a 2-core machine the pool has 2 threads, and a
    /// synchronous test that holds both stalls every async test of the parallel suite (a clean-clone
    /// CI run: a 50-kiosk core network test held them 60 s and the watchdog tests timed out;
    /// RELIABILITY.md, finding 24). Check the result in the test, not in `body`: expectations belong
    /// to the test's task.
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Whether `task` ends within `seconds` (the task is left running when it does not).
    public static func finishes<T: Sendable, E: Error>(_ task: Task<T, E>, within seconds: Double) async -> Bool {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let waiter = Task {
            _ = await task.result
            continuation.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            continuation.yield(false)
        }
        var iterator = stream.makeAsyncIterator()
        let finished = await iterator.next() ?? false
        timer.cancel()
        if finished { waiter.cancel() }
        return finished
    }

    /// Runs `service` in a task under service-lifecycle's graceful-shutdown test trigger
    /// (`testGracefulShutdown`), as a `ServiceGroup` would run it, and hands both to `body`.
    ///
    /// `body` triggers the shutdown (`trigger.triggerGracefulShutdown()`) and may await the task;
    /// whatever is still running when `body` ends is cancelled and awaited.
    public static func withGracefulShutdown<T>(
        running service: some Service,
        _ body: (GracefulShutdownTestTrigger, Task<Void, any Error>) async throws -> T
    ) async throws -> T {
        try await testGracefulShutdown { (trigger) async throws in
            let run = Task { try await service.run() }
            let result: Result<T, any Error>
            do { result = .success(try await body(trigger, run)) } catch { result = .failure(error) }
            run.cancel()
            _ = try? await run.value
            return try result.get()
        }
    }
}
