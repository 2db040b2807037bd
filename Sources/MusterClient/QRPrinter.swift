import Foundation

/// Prints enrollment text as a QR code on the terminal (stdout), for a phone to scan. Only block
/// characters and spaces: never an escape sequence.
public enum QRPrinter {
    public static func print(_ text: String) {
        do {
            let code = try QRCode(text: text, errorCorrection: .low)
            Output.line(code.terminalText())
        } catch {
            Output.error("cannot draw a QR code for this text (\(error)); use the text below")
        }
    }
}
