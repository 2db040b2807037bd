/// One client operation of the workload and what became of it, as the history file records it.
///
/// The outcome is what the client saw, never a guess: an answer that names a write is `ok`; an
/// answer without a write (already inside, not inside, not found, no lock) is `refused`; an error
/// answer, or a daemon that could not be reached before the request was sent, is `failed`; a
/// request sent without an answer (timeout, connection closed) is `unknown`.
struct Operation: Codable, Sendable {
    enum Kind: String, Codable, Sendable, CaseIterable {
        case checkIn = "checkin"
        case checkOut = "checkout"
        case register
        case lock
    }

    enum Outcome: String, Codable, Sendable, CaseIterable {
        case ok, refused, failed, unknown
    }

    var id: Int
    var scenario: String
    var kind: Kind
    /// The kiosk the client talked to (1-based).
    var kiosk: Int
    /// The attendee's email (check-in, check-out, registration) or the lock version ("v12").
    var subject: String
    var lockVersion: UInt64?
    var startMillis: UInt64
    var endMillis: UInt64
    var outcome: Outcome
    /// The daemon's answer (`checked_in`, `error`, ...) or the client's error.
    var detail: String
}
