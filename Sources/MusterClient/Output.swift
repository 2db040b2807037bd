import Foundation
import MusterCore

/// Writes command output: plain lines (data sanitized for the terminal) or JSON for scripts.
public enum Output {
    public static func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A line containing values that came from data: control characters and escapes removed.
    public static func data(_ text: String) {
        line(TerminalText.sanitize(text, maxCharacters: 2_000))
    }

    /// A message for the person at the terminal (stderr), values from data sanitized, no prefix.
    public static func note(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.sanitize(text, maxCharacters: 2_000) + "\n").utf8))
    }

    public static func error(_ text: String) {
        FileHandle.standardError.write(
            Data(("muster: " + TerminalText.sanitize(text, maxCharacters: 2_000) + "\n").utf8)
        )
    }

    /// Pretty, key-sorted JSON, terminal-safe: C0 controls are escaped by the encoder, and C1 controls, DEL and
    /// bidirectional or invisible formatting characters by ``TerminalSafeJSON``.
    public static func json(_ value: some Encodable) throws {
        var data = try jsonData(value)
        data.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(data)
    }

    /// The bytes ``json(_:)`` prints, without the final newline.
    static func jsonData(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return TerminalSafeJSON.escape(try encoder.encode(value))
    }

    /// Raw text (exports): written as is, already CSV-escaped.
    public static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// A one-line progress bar on stderr, shown only on a terminal, for large imports.
public struct ProgressBar {
    let enabled: Bool
    let label: String

    public init(label: String, total: Int, threshold: Int = 1_000) {
        self.label = label
        enabled = isatty(STDERR_FILENO) == 1 && total >= threshold
    }

    public func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let text = "\r\(label) [\(bar)] \(done)/\(total)" + (done == total ? "\n" : "")
        FileHandle.standardError.write(Data(text.utf8))
    }
}
