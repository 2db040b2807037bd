import Foundation
public import MusterRules
public import MusterTime

/// `muster occupancy [--watch]`, `muster status [--watch]`: reads a value and shows it, then, when
/// watching, again every `interval` on the injected clock, so a test drives the refreshes with a
/// ``ManualClock``.
public struct Watch<Value> {
    /// nil: show once.
    let interval: Duration?
    let read: () throws(ClientError) -> Value

    public init(interval: Duration?, read: @escaping () throws(ClientError) -> Value) {
        self.interval = interval
        self.read = read
    }

    /// Shows the value (`show(value, isRefresh)`) once, or until `frames` were shown or the
    /// task is cancelled when watching.
    public func run(
        time: any TimeSource,
        frames: Int? = nil,
        show: (Value, Bool) -> Void
    ) async throws(ClientError) {
        var shown = 0
        while true {
            show(try read(), interval != nil)
            shown += 1
            guard let interval, frames.map({ shown < $0 }) ?? true else { return }
            do {
                try await time.sleep(for: interval)
            } catch {
                return  // cancelled: stop watching
            }
        }
    }

    /// The same loop for a synchronous command: each wait on the clock runs on a task while this
    /// thread, which has nothing else to do until interrupted, waits for it.
    public func runBlocking(time: any TimeSource, show: (Value, Bool) -> Void) throws(ClientError) {
        while true {
            show(try read(), interval != nil)
            guard let interval else { return }
            let done = DispatchSemaphore(value: 0)
            Task {
                try? await time.sleep(for: interval)
                done.signal()
            }
            done.wait()
        }
    }
}

/// The organizer's live occupancy view.
public typealias OccupancyWatch = Watch<Occupancy>
