import Dispatch
import Synchronization

/// Runs the seeds of a sweep on `jobs` threads and hands each result on in seed order.
///
/// Each seed is its own ``Simulation`` with nothing shared, so the runs are independent and their
/// event logs the same whatever the number of jobs; only the wall clock changes. A sweep of 1,000
/// seeds is CPU-bound work that one thread leaves half of a two-core kiosk idle for.
public enum SeedSweep {
    /// Runs `seeds` (in order), `jobs` at a time, and calls `report` with each result in seed order,
    /// as soon as every earlier seed has been reported. A run that throws stops the sweep: the seeds
    /// not started are not run, and the first error (in seed order) is thrown once the runs under way
    /// have ended.
    public static func run(
        seeds: [UInt64],
        jobs: Int,
        options: @Sendable (UInt64) -> SimOptions,
        report: @Sendable (SimResult) -> Void
    ) throws(SimError) {
        let state = Mutex(State(count: seeds.count))
        let workers = max(1, min(jobs, seeds.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = state.withLock({ $0.take() }) {
                let outcome: Result<SimResult, SimError>
                do throws(SimError) {
                    outcome = .success(try Simulation(options: options(seeds[index])).run())
                } catch {
                    outcome = .failure(error)
                }
                // Reported under the lock, so results come out in seed order and one at a time.
                state.withLock { state in
                    state.finish(index, outcome)
                    while let result = state.nextInOrder() { report(result) }
                }
            }
        }
        if let error = state.withLock({ $0.firstError }) { throw error }
    }

    private struct State {
        var results: [Result<SimResult, SimError>?]
        var next = 0
        var reported = 0
        var firstError: SimError?

        init(count: Int) { results = Array(repeating: nil, count: count) }

        /// The next seed to run, or nil when all have started or a run failed.
        mutating func take() -> Int? {
            guard firstError == nil, next < results.count else { return nil }
            defer { next += 1 }
            return next
        }

        mutating func finish(_ index: Int, _ outcome: Result<SimResult, SimError>) {
            results[index] = outcome
        }

        /// The result of the next seed to report, if it has ended and no earlier run failed.
        mutating func nextInOrder() -> SimResult? {
            guard firstError == nil, reported < results.count, let outcome = results[reported] else { return nil }
            results[reported] = nil
            reported += 1
            switch outcome {
            case .success(let result): return result
            case .failure(let error):
                firstError = error
                return nil
            }
        }
    }
}
