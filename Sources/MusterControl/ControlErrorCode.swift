/// Why the daemon could not carry out a control request: the machine-readable half of an
/// ``ControlResponse/Outcome/error`` response (the sentence is its `message`).
///
/// The raw values are the wire format; add cases, never rename them.
public enum ControlErrorCode: String, Codable, Sendable, Equatable {
    /// The request itself is wrong: a missing field, a malformed value, an unknown operation.
    case badRequest = "bad_request"
    /// Submitted organizer deltas do not follow the kiosk's head (gap, broken chain, fork): rebuild
    /// them against the current head and submit again.
    case staleHead = "stale_head"
    /// Submitted deltas were refused on their merits (signature, author, policy).
    case rejected
    /// The replica could not be written or read (disk full, I/O error, corruption).
    case storage
    /// The peer's user may not send this request (SO_PEERCRED on the control socket): the public
    /// screen's user sends only the screen's requests, and other users none (issue 14).
    case forbidden
    /// Too many lookups found no one lately: wait (``ControlResponse/retryAfterSeconds``) and see staff.
    /// Only peers that are not staff are limited.
    case rateLimited = "rate_limited"
    /// Anything else; the message says what.
    case `internal`
}
