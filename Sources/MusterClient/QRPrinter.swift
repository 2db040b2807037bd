import Foundation
@_exported import MusterQR

/// Prints enrollment text as a QR code on the terminal (stdout), for a phone to scan. Only block
/// characters and spaces: never an escape sequence.
///
/// `MusterQR` is re-exported so that code importing `MusterClient` keeps seeing ``QRCode`` where
/// it lived before libqrencode replaced the hand-written encoder.
public enum QRPrinter {
    public static func print(_ text: String) {
        do {
            let code = try QRCode(text: text, errorCorrection: .low)
            Output.line(code.terminalText())
        } catch {
            Output.error("cannot draw a QR code for this text (\(error)); use the text below")
        }
    }

    /// Prints a text to carry to another machine (a join request, a join bundle): its QR code unless
    /// `textOnly`, then the text itself, which stays the fallback when no camera can read the code.
    public static func print(_ text: String, textOnly: Bool) {
        if !textOnly { print(text) }
        Swift.print(text)
    }
}
