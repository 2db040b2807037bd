public import MusterCore

/// Why a sync handshake (`ClientHandshake`, `ServerHandshake`) failed.
///
/// The connection code closes the socket on any of these and logs `message`,
/// so the code tells it *how* to react (e.g. a wrong network key is worth a
/// different log line than a kiosk that is not on the roster) and the message
/// tells a person what happened. Messages are built only from sizes, fingerprints
/// of public keys and libsodium call names; the network key, ephemeral secrets
/// and the shared secret never appear in them.
public struct HandshakeError: MessageError, Sendable, Equatable {
    /// What kind of failure this is.
    public enum Code: Sendable, Equatable {
        /// The peer's hello was not authenticated with our venue network key:
        /// it belongs to another venue, or is not a Muster kiosk at all.
        case wrongNetworkKey
        /// The peer's ephemeral key is a low-order point, which would make the
        /// shared secret predictable (all zero); only a broken or hostile peer sends one.
        case lowOrderPoint
        /// The peer's identity proof did not verify: its encrypted box did not
        /// open (tampered, or replayed from another session) or its signature was wrong.
        case badSignature
        /// The peer proved its identity, but our `authorize` closure refused it
        /// (typically: not on the roster).
        case notAuthorized
        /// The client was told which server key to expect and the server proved another.
        case unexpectedServer
        /// A message had the wrong size, a step was called out of order or
        /// twice, or a local parameter (such as the network key) had the wrong size.
        case malformed
        /// libsodium failed for a reason unrelated to the peer (e.g. out of memory).
        case sodium
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence a person can act on; never contains secret material.
    public let message: String

    /// Creates an error. Internal code must only pass non-secret text as `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
