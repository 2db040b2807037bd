import Foundation
import MusterClient
import MusterControl
import MusterCore
import Synchronization

/// Clients on every kiosk making check-ins, check-outs and walk-in registrations at a steady rate,
/// and the organizer changing the lock through kiosk 1, each operation recorded with its outcome.
final class Workload: Sendable {
    let lab: LabControl
    let log: OperationLog
    let attendees: [String]
    let intervalMillis: UInt32
    /// How often the organizer changes the lock.
    let lockIntervalMillis: UInt32 = 3000
    /// How long a client waits for its kiosk's answer before the outcome is unknown.
    let timeoutMillis = 3000
    let seed: UInt64
    private let scenario = Mutex<String>("setup")
    private let running = Atomic<Bool>(false)
    /// One use of the organizer key file at a time: the lock changer and a scenario's `muster revoke`
    /// would otherwise both sign on the same head and fork the organizer's chain themselves.
    private let organizerTurn = Mutex<Void>(())
    private let group = DispatchGroup()

    init(lab: LabControl, log: OperationLog, attendees: [String], intervalMillis: UInt32, seed: UInt64) {
        self.lab = lab
        self.log = log
        self.attendees = attendees
        self.intervalMillis = intervalMillis
        self.seed = seed
    }

    var currentScenario: String {
        get { scenario.withLock { $0 } }
        set { scenario.withLock { $0 = newValue } }
    }

    /// Starts one client thread per kiosk and the organizer's.
    func start(scenario name: String) {
        currentScenario = name
        running.store(true, ordering: .sequentiallyConsistent)
        for kiosk in lab.all {
            let seed = self.seed &+ UInt64(kiosk) &* 0x9E37_79B9 &+ UInt64(log.newID())
            group.enter()
            Thread.detachNewThread { [self] in
                var random = SplitMix64(seed: seed)
                while running.load(ordering: .relaxed) {
                    step(kiosk: kiosk, random: &random)
                    usleep(intervalMillis * 1000)
                }
                group.leave()
            }
        }
        group.enter()
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                // Sleep in small steps so that stop() does not wait a whole interval.
                var slept: UInt32 = 0
                while slept < lockIntervalMillis, running.load(ordering: .relaxed) {
                    usleep(100_000)
                    slept += 100
                }
                guard running.load(ordering: .relaxed) else { break }
                changeLock()
            }
            group.leave()
        }
    }

    /// Stops the clients and waits for every operation in flight to end (at most one timeout).
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        group.wait()
    }

    private func step(kiosk: Int, random: inout SplitMix64) {
        let draw = random.next() % 100
        let attendee = attendees[Int(random.next() % UInt64(attendees.count))]
        switch draw {
        case 0..<50: perform(.checkIn, kiosk: kiosk, email: attendee)
        case 50..<85: perform(.checkOut, kiosk: kiosk, email: attendee)
        default: perform(.register, kiosk: kiosk, email: "walkin-\(log.newID())-k\(kiosk)@walkin.example")
        }
    }

    /// One check-in, check-out or registration on one kiosk, recorded.
    @discardableResult
    func perform(_ kind: Operation.Kind, kiosk: Int, email: String, scenario name: String? = nil) -> Operation {
        let request: ControlRequest =
            switch kind {
            case .checkIn: .checkIn(query: email)
            case .checkOut: .checkOut(query: email)
            case .register, .lock:
                .register(WalkInRegistration(firstName: "Walk", lastName: "In", email: email, company: "Faults"))
            }
        let start = LabControl.nowMillis()
        let reply = KioskClient(socketPath: lab.socketPath(kiosk), timeoutMillis: timeoutMillis).send(request)
        let (outcome, detail) = Self.classify(kind, reply)
        let operation = Operation(
            id: log.newID(),
            scenario: name ?? currentScenario,
            kind: kind,
            kiosk: kiosk,
            subject: email,
            lockVersion: nil,
            startMillis: start,
            endMillis: LabControl.nowMillis(),
            outcome: outcome,
            detail: detail
        )
        log.record(operation)
        return operation
    }

    static func classify(_ kind: Operation.Kind, _ reply: KioskClient.Reply) -> (Operation.Outcome, String) {
        switch reply {
        case .notSent(let why): return (.failed, why)
        case .noAnswer(let why): return (.unknown, why)
        case .answer(let response):
            let detail = response.description
            switch (kind, response.outcome) {
            case (.checkIn, .checkedIn), (.checkOut, .checkedOut), (.register, .registered): return (.ok, detail)
            case (_, .error): return (.failed, detail)
            default: return (.refused, detail)
            }
        }
    }

    /// Runs `body` while no other use of the organizer key file (``changeLock(scenario:)``) runs.
    func asOrganizer<T: Sendable>(_ body: () -> T) -> T {
        organizerTurn.withLock { _ in body() }
    }

    /// The organizer re-locks the campaign with the next version through kiosk 1; returns the
    /// operation as recorded.
    @discardableResult
    func changeLock(scenario name: String? = nil) -> Operation {
        asOrganizer { lockOnce(scenario: name) }
    }

    private func lockOnce(scenario name: String?) -> Operation {
        let start = LabControl.nowMillis()
        var version: UInt64?
        var outcome = Operation.Outcome.failed
        var detail = ""
        do {
            let context = try ClientContext(configPath: lab.configPath(1), environment: [:])
            context.control.timeout = .seconds(max(1, timeoutMillis / 1000))
            version = ((try? context.replica().view { try $0.lock() })??.version ?? 0) + 1
            let status = (version ?? 0) % 2 == 0 ? "Attended" : "Responded"
            detail = try OrganizerActions(context, keyPath: lab.organizerKey)
                .lock(campaign: FaultsVenue.campaign, status: status, opens: nil, closes: nil)
            outcome = .ok
        } catch {
            detail = error.message
            switch error.code {
            case .timeout, .daemonUnavailable, .protocolError: outcome = .unknown
            default: outcome = .failed
            }
        }
        // The version is what kiosk 1's replica said before the submission; the message confirms it.
        if outcome == .ok, let range = detail.range(of: "lock v") {
            version = UInt64(detail[range.upperBound...].prefix { $0.isNumber })
        }
        let operation = Operation(
            id: log.newID(),
            scenario: name ?? currentScenario,
            kind: .lock,
            kiosk: 1,
            subject: "v\(version ?? 0)",
            lockVersion: version,
            startMillis: start,
            endMillis: LabControl.nowMillis(),
            outcome: outcome,
            detail: detail
        )
        log.record(operation)
        return operation
    }
}
