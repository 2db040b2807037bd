/// How the kiosk screen wipes what the person before left on it.
///
/// Empty lines only push old lines up: on a tall console (a 1080p framebuffer shows about 67 lines)
/// the person before stayed on screen above the next header, and on any terminal they stayed in the
/// scrollback (issue 32). On a terminal the screen is therefore cleared together with its scrollback;
/// what follows is printed as plain lines from the top, so a screen reader or braille display reads
/// every line as before and only the wipe itself is a control sequence.
public enum TerminalClear {
    /// Cursor home (`ESC [ H`), erase the screen (`ESC [ 2 J`), erase the scrollback (`ESC [ 3 J`, as
    /// xterm, the Linux console since 3.0, tmux and VTE implement it).
    public static let screenAndScrollback = "\u{1B}[H\u{1B}[2J\u{1B}[3J"

    /// For output that is not a terminal (a pipe, a log): `count` empty lines, nothing to interpret.
    public static func lines(_ count: Int) -> String { String(repeating: "\n", count: count) }
}
