public import MusterCore

/// The error type thrown by MusterDiscovery.
///
/// A failed Avahi call names the call and carries Avahi's own error code and text, so a log line
/// says exactly which step failed (`avahi_entry_group_commit: Local name collision`).
public struct DiscoveryError: MessageError, Sendable, Equatable {
    /// What kind of failure this is, for callers that branch on it.
    public enum Code: Sendable, Equatable {
        /// A libavahi call failed; ``call`` and ``avahiError`` say which and why.
        case avahiCall
        /// The ``DiscoveryConfiguration`` cannot be published (bad name, port, venue id or fingerprint).
        case badConfiguration
        /// ``AvahiDiscovery/run()`` was called a second time on the same instance.
        case alreadyRunning
    }

    public let code: Code
    /// A sentence a person can act on.
    public let message: String
    /// The libavahi function that failed, for ``Code/avahiCall``.
    public let call: String?
    /// Its `AVAHI_ERR_*` code (negative), for ``Code/avahiCall``.
    public let avahiError: Int32?

    public init(_ code: Code, _ message: String, call: String? = nil, avahiError: Int32? = nil) {
        self.code = code
        self.message = message
        self.call = call
        self.avahiError = avahiError
    }
}
