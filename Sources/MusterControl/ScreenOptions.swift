/// How the public kiosk screen behaves: its language, how long anything private stays on it, how it
/// slows down someone guessing ticket codes, and its accessibility options (`[screen]` in the config).
///
/// The defaults are what a hallway kiosk wants: an outcome is wiped after 15 s, a forgotten prompt
/// gives up after 30 s, and after three misses each further miss waits twice as long as the last.
public struct ScreenOptions: Sendable, Equatable {
    /// The kiosk's language; an attendee may switch for their own turn only.
    public var language: ScreenLanguage = .english
    /// How long an outcome ("Checked in", "Not found") stays before the screen is cleared.
    public var outcomeTimeout: Duration = .seconds(15)
    /// How long any question (confirm, registration field, note) waits before returning to the start.
    public var idleTimeout: Duration = .seconds(30)
    /// Not-found answers in a row allowed before the screen starts to wait between attempts.
    public var freeMisses: Int = 3
    /// The first wait after the free misses; each further miss doubles it, up to ``maxBackoff``.
    public var firstBackoff: Duration = .seconds(2)
    public var maxBackoff: Duration = .seconds(60)
    /// After this long without a miss, the count of misses starts again from zero.
    public var missMemory: Duration = .seconds(300)
    /// Ring the terminal bell: once for success, twice for anything else (always with the words).
    public var bell: Bool = false
    /// Print the welcome in large block letters above the plain line.
    public var largeWelcome: Bool = false
    /// How many empty lines "clear" the screen when the output is not a terminal (a pipe). On a
    /// terminal the screen and its scrollback are erased instead (`TerminalClear` in MusterClient):
    /// empty lines left the person before above the next header on a tall console.
    public var clearLines: Int = 30
    /// The terminal's width in cells, for the walk-in's QR code and for names cut to fit.
    public var columns: Int = 80
    /// The user the public screen runs as (`muster-kiosk@.service`). musterd looks it up at start and
    /// lets it send only the screen's requests over the control socket, with its lookups rate limited.
    public var user: String = "muster-screen"
    /// An add-on desk (issue 35): the screen asks for nothing but an email or ticket code and hands out
    /// this add-on (a T-shirt, a dinner voucher), once per attendee venue-wide. nil: the check-in screen.
    public var redeem: String?

    public init() {}
}
