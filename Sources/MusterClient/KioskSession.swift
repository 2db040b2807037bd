import Foundation
import MusterControl
import MusterCore
import MusterStore
import MusterTime

/// Runs ``KioskScreen`` on a line-oriented terminal, pipe or USB scanner: reads lines, carries out
/// the screen's actions against the replica (lookups) and the daemon (writes), and prints.
public final class KioskSession {
    let client: ClientContext
    let readLine: () -> String?
    let waitForInput: ((Int32) -> Bool)?
    let write: (String) -> Void
    var screen: KioskScreen
    /// How often an idle screen checks for a new campaign lock.
    public static let lockPollMillis: Int32 = 250

    /// - Parameter waitForInput: when given, waits up to the milliseconds given for a line and says
    ///   whether one is ready; the screen then switches to a new campaign lock while nobody types.
    public init(
        client: ClientContext,
        readLine: @escaping () -> String?,
        waitForInput: ((Int32) -> Bool)? = nil,
        write: @escaping (String) -> Void
    ) {
        self.client = client
        self.readLine = readLine
        self.waitForInput = waitForInput
        self.write = write
        self.screen = KioskScreen(
            context: KioskScreen.Context(kioskName: client.config.name, campaignName: nil, refusal: nil),
            formatTime: { ClockText.time(millis: Int64(clamping: $0)) }
        )
    }

    /// On a terminal the screen must not be left with Ctrl-C, Ctrl-\ or Ctrl-Z; only end of input ends it.
    public static func protectTerminal() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        signal(SIGINT, SIG_IGN)
        signal(SIGQUIT, SIG_IGN)
        signal(SIGTSTP, SIG_IGN)
    }

    /// Runs until end of input.
    public func run() {
        _ = screen.update(context: currentContext())
        var pending = screen.handle(.started)
        actions: while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .show(let line):
                write(line + "\n")
            case .prompt(let text):
                let refreshed = screen.update(context: currentContext())
                if !refreshed.isEmpty {
                    pending = refreshed
                    continue
                }
                write(text)
                if let waitForInput {
                    while !waitForInput(Self.lockPollMillis) {
                        let refreshed = screen.update(context: currentContext())
                        if !refreshed.isEmpty {
                            write("\n")
                            pending = refreshed
                            continue actions
                        }
                    }
                }
                guard let line = readLine() else {
                    write("\n")
                    return
                }
                pending += screen.handle(.line(line))
            case .lookup(let query):
                pending += screen.handle(lookup(query))
            case .checkIn(let key):
                pending += screen.handle(send(op: .checkIn) { $0.query = key })
            case .register(let draft):
                pending += screen.handle(
                    send(op: .register) {
                        $0.firstName = draft.firstName
                        $0.lastName = draft.lastName
                        $0.email = draft.email
                        $0.company = draft.company
                    }
                )
            case .note(let key, let text):
                pending += screen.handle(
                    send(op: .note) {
                        $0.attendeeKey = key
                        $0.text = text
                    }
                )
            case .printBadge(let key):
                pending += screen.handle(
                    send(op: .badge) {
                        $0.attendeeKey = key
                        $0.badgeReason = "self-service"
                    }
                )
            }
        }
    }

    private func send(op: ControlRequest.Operation, _ fill: (inout ControlRequest) -> Void) -> KioskScreen.Event {
        var request = ControlRequest(op: op)
        fill(&request)
        do {
            return .answered(try client.exchange(request))
        } catch {
            return .failed(error.message)
        }
    }

    func currentContext() -> KioskScreen.Context {
        let name = client.config.name
        guard let lock = try? client.replica().view({ try $0.lock() }), lock.campaignID != nil else {
            return KioskScreen.Context(
                kioskName: name,
                campaignName: nil,
                refusal: nil,
                printsBadges: client.config.badge.printer != nil
            )
        }
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        var refusal: String?
        if case .refuse(let message) = CheckInPolicy.window(lock: lock, nowMillis: now) { refusal = message }
        return KioskScreen.Context(
            kioskName: name,
            campaignName: lock.campaignName ?? lock.campaignID,
            refusal: refusal,
            printsBadges: client.config.badge.printer != nil
        )
    }

    func lookup(_ query: String) -> KioskScreen.Event {
        do {
            let result: KioskScreen.LookupResult = try client.replica().view { view in
                let now = UInt64(Date().timeIntervalSince1970 * 1000)
                let window = CheckInPolicy.window(lock: try view.lock(), nowMillis: now)
                guard case .allow(let campaign, _) = window else {
                    if case .refuse(let message) = window { return .refused(message) }
                    return .notFound
                }
                guard let record = try view.lookup(campaignID: campaign, query: query) else { return .notFound }
                let alreadyIn = record.isInside ? record.firstArrival.map(\.summary) : nil
                return .found(record.summary, alreadyIn: alreadyIn, admitted: record.admitted)
            }
            return .lookedUp(result)
        } catch {
            return .failed("\(error)")
        }
    }
}
