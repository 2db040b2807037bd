import Foundation
public import MusterControl
import MusterCore
import MusterRules
public import MusterTime

/// Runs ``KioskScreen`` on a line-oriented terminal, pipe or USB scanner: reads lines, carries out the
/// screen's actions against the daemon, and prints.
///
/// The public screen runs as its own user (`muster-screen`) whose only power is the control socket:
/// every lookup, the lock, and every write go through musterd (`lookup`, `screen`, `checkin`, …), so
/// this process opens no replica and loads no key or venue file. Anything that escapes it holds no
/// more than the screen could show.
public final class KioskSession {
    let config: KioskConfig
    let control: ControlClient
    let clock: any TimeSource
    let readLine: () -> String?
    let waitForInput: ((Int32) -> Bool)?
    let write: (String) -> Void
    /// Whether the output is a terminal, which ``clear`` can wipe; a pipe gets empty lines instead.
    let clearsTerminal: Bool
    var screen: KioskScreen
    /// How often a waiting screen checks the lock and its deadlines.
    public static let pollMillis: Int32 = 250

    /// - Parameters:
    ///   - clock: the screen's timeouts run on it (a `ManualClock` in tests).
    ///   - waitForInput: when given, waits up to the milliseconds given for a line and says whether one
    ///     is ready; the screen then switches to a new campaign lock and clears itself while nobody
    ///     types. Without it (a pipe), deadlines are applied before each line is read.
    ///   - clearsTerminal: `write` goes to a terminal; the screen is then wiped with its scrollback
    ///     (``TerminalClear``), otherwise pushed up with empty lines.
    public init(
        config: KioskConfig,
        control: ControlClient,
        clock: any TimeSource = SystemTime(),
        readLine: @escaping () -> String?,
        waitForInput: ((Int32) -> Bool)? = nil,
        clearsTerminal: Bool = false,
        write: @escaping (String) -> Void
    ) {
        self.config = config
        self.control = control
        self.clock = clock
        self.readLine = readLine
        self.waitForInput = waitForInput
        self.write = write
        self.clearsTerminal = clearsTerminal
        self.screen = KioskScreen(
            context: KioskScreen.Context(
                kioskName: config.name,
                campaignName: nil,
                refusal: nil,
                printsBadges: config.badge.printsBadges
            ),
            options: config.screen,
            clock: clock,
            formatTime: { ClockText.time(millis: Int64(clamping: $0)) }
        )
    }

    /// On a terminal the screen must not be left with Ctrl-C, Ctrl-\ or Ctrl-Z; only end of input ends it.
    /// Flow control (IXON) goes off too: otherwise one Ctrl-S freezes the screen for the next person
    /// until someone knows to type Ctrl-Q.
    public static func protectTerminal() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        signal(SIGINT, SIG_IGN)
        signal(SIGQUIT, SIG_IGN)
        signal(SIGTSTP, SIG_IGN)
        var settings = termios()
        if tcgetattr(STDIN_FILENO, &settings) == 0 {
            settings.c_iflag &= ~tcflag_t(IXON)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        }
    }

    /// Runs until end of input.
    public func run() {
        _ = screen.update(context: currentContext())
        var pending = screen.handle(.started)
        while true {
            carryOut(&pending)
            // Before the next line: deadlines that passed, then a lock that changed.
            pending = screen.handle(.tick)
            if !pending.isEmpty { continue }
            pending = screen.update(context: currentContext())
            if !pending.isEmpty { continue }
            if let waitForInput, !waitForInput(Self.pollMillis) { continue }
            guard let line = readLine() else {
                write("\n")
                return
            }
            pending = screen.handle(.tick)
            carryOut(&pending)
            pending = screen.handle(.line(line))
        }
    }

    private func carryOut(_ pending: inout [KioskScreen.Action]) {
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .show(let line):
                write(line + "\n")
            case .prompt(let text):
                write(text)
            case .clear:
                write(
                    clearsTerminal ? TerminalClear.screenAndScrollback : TerminalClear.lines(screen.options.clearLines)
                )
            case .cue(let cue):
                // One bell for success, two for anything else; the words are always printed too.
                write(cue == .success ? "\u{07}" : "\u{07}\u{07}")
            case .lookup(let query):
                pending += screen.handle(lookup(query))
            case .checkIn(let query):
                pending += screen.handle(send(.checkIn(query: query)))
            case .attend(let query, let code):
                pending += screen.handle(send(.attend(query: query, code: code)))
            case .register(let draft):
                pending += screen.handle(send(.register(Self.walkIn(draft))))
            case .checkInParty(let query):
                pending += screen.handle(send(.checkInParty(query: query)))
            case .redeem(let addon, let query):
                pending += screen.handle(send(.redeem(addon: addon, query: query)))
            case .note(let key, let text):
                pending += screen.handle(send(.note(attendeeKey: key, text: text)))
            case .printBadge(let key):
                pending += screen.handle(send(.badge(BadgeOrder(attendee: .key(key), reason: .selfService))))
            }
        }
    }

    /// One request; the daemon tells the screen's user a ``ScreenAnswer`` (and a screen running as staff
    /// reads staff's answer as one too).
    private func exchange(_ request: ControlRequest) throws(ClientError) -> ScreenAnswer {
        do {
            return try control.send(request, answer: ScreenAnswer.self)
        } catch {
            throw ClientError(error)
        }
    }

    private func send(_ request: ControlRequest) -> KioskScreen.Event {
        do {
            return .answered(try exchange(request))
        } catch {
            return .failed(error.message)
        }
    }

    /// The lock as the daemon sees it. While the daemon cannot be reached the screen keeps what it
    /// showed last; the next write reports the failure in words.
    func currentContext() -> KioskScreen.Context {
        guard case .context(let context)? = try? exchange(.screen) else { return screen.context }
        return KioskScreen.Context(
            kioskName: context.kioskName,
            campaignName: context.campaignName,
            refusal: context.refusal,
            printsBadges: config.badge.printsBadges,
            language: context.language,
            solitude: context.solitude,
            sessionDoor: context.sessionDoor,
            session: context.session,
            sessionUntilMillis: context.sessionUntilMillis,
            spotOpen: context.spotOpen
        )
    }

    func lookup(_ query: String) -> KioskScreen.Event {
        let answer: ScreenAnswer
        do {
            answer = try exchange(.lookup(query: query))
        } catch {
            return .failed(error.message)
        }
        switch answer {
        case .found(let found):
            let match = KioskScreen.Match(
                query: query,
                maskedName: found.maskedName,
                admitted: found.admitted,
                checkedInAtMillis: found.checkedInAtMillis
            )
            return .lookedUp(.found(match))
        case .notFound:
            return .lookedUp(.notFound)
        case .refused(let refusal):
            return .lookedUp(.refused(refusal.message))
        case .failure(let failure):
            if let seconds = failure.retryAfter { return .lookedUp(.throttled(seconds: seconds)) }
            return .failed(failure.message)
        case .context, .checkedIn, .registered, .alreadyCheckedIn, .noted, .badgePrinted, .badgeNotPrinted,
            .badgeAlreadyPrinted, .redeemed, .partyCheckedIn, .attended:
            return .failed("musterd could not look this up")
        }
    }

    /// The registration a draft sends: cut to what a replica stores, so that however much was typed the
    /// request stays within the screen's line limit (a longer line closes the connection, and the walk-in
    /// saw "lost the connection"). The email is only cut past the longest address, so a long one is
    /// refused in words, never changed into another.
    static func walkIn(_ draft: KioskScreen.Draft) -> WalkInRegistration {
        WalkInRegistration(
            firstName: storable(draft.firstName),
            lastName: storable(draft.lastName),
            email: String(String.UnicodeScalarView(draft.email.unicodeScalars.prefix(maxSentEmail))),
            company: storable(draft.company)
        )
    }

    /// A name or company as a replica would store it (``Limits/maxStoredFieldCharacters``, sanitized).
    static func storable(_ text: String) -> String {
        TerminalText.sanitize(text, maxCharacters: Limits.maxStoredFieldCharacters)
    }

    /// Past the longest address (254 bytes): an email this long is refused whatever follows.
    static let maxSentEmail = 255
}
