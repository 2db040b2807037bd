import Foundation
import MusterControl
import Synchronization

/// Check-ins as fast as the lab's control sockets answer them: one thread and one connection per
/// kiosk, all at once. The kiosk in slot `s` checks in the bench attendees `first + s`,
/// `first + s + kiosks`, … below `first + count`, so every attendee is tried once.
enum CheckInRace {
    /// Runs the race on every kiosk of the lab and returns the first failure, if any. `answered(response)` judges each
    /// answer: nil goes on; a text is a failure, which ends that kiosk's thread when
    /// `stopOnRefusal`. A request that gets no answer is a failure that ends the thread.
    static func run(
        lab: Lab,
        count: Int,
        firstAttendee: Int,
        stopOnRefusal: Bool,
        answered: @escaping @Sendable (ControlResponse) -> String?
    ) -> String? {
        let kiosks = Array(1...lab.kiosks)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for (slot, kiosk) in kiosks.enumerated() {
            let socket = lab.socket(kiosk)
            let stride = kiosks.count
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let client = ControlClient(path: socket)
                var index = slot
                while index < count {
                    let request = ControlRequest.checkIn(query: BenchAttendees.email(firstAttendee + index))
                    do {
                        if let failure = answered(try client.send(request)) {
                            failures.withLock { $0.append("k\(kiosk): \(failure)") }
                            if stopOnRefusal { return }
                        }
                    } catch {
                        failures.withLock { $0.append("k\(kiosk): \(error)") }
                        return
                    }
                    index += stride
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return failures.withLock { $0.first }
    }

    /// What a refused answer says: its outcome and message.
    static func refusal(_ response: ControlResponse) -> String {
        "\(response)"
    }
}
