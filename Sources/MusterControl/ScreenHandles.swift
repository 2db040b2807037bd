import MusterCore
import MusterCrypto

/// What the public screen calls an attendee instead of their attendee key, which is their email: a name
/// the daemon makes for this run (a keyed BLAKE2b of the key, 128 bits in hex), which the screen sends back
/// with the note and the self-service badge that follow a check-in, and which the daemon turns back into
/// the key of the attendee it has bound to the screen (``ScreenBinding``).
///
/// So a process that escaped the screen and checks in a guessed ticket code learns the holder's first
/// name and initial, as the screen shows them, but not their email; and a handle means nothing after the
/// daemon restarts or on another kiosk.
public struct ScreenHandles: Sendable {
    private let secret: [UInt8]

    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// A secret from the system's random source, for one run of the daemon.
    public static func random() -> ScreenHandles {
        var generator = SystemRandomNumberGenerator()
        return ScreenHandles(secret: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The screen's name for the attendee with `key`.
    public func handle(for key: String) -> String {
        Hex.encode(Blake2b.hash256(secret + Array(key.utf8)).prefix(16))
    }
}
