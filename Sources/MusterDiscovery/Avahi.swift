import CAvahi

/// The one place where libavahi results are checked.
///
/// Avahi reports failure three ways: a negative `AVAHI_ERR_*` return, a NULL object with the
/// reason in `avahi_client_errno`, or a NULL object with the reason in an out parameter. Routing
/// all of them through `check` means no result is silently dropped and every error names the call
/// that failed, with `avahi_strerror`'s text.
enum Avahi {
    /// Throws unless `result` is `AVAHI_OK` or another non-negative value.
    static func check(_ call: String, _ result: Int32) throws(DiscoveryError) {
        guard result < 0 else { return }
        throw error(call, result)
    }

    /// Unwraps an object returned by `call`; when it is NULL, `errorCode` says why
    /// (`avahi_client_errno(client)`, or the out parameter of `avahi_client_new`).
    static func check<P>(_ call: String, _ object: P?, errorCode: @autoclosure () -> Int32) throws(DiscoveryError) -> P
    {
        guard let object else { throw error(call, errorCode()) }
        return object
    }

    /// The error for `call` failing with `code`.
    static func error(_ call: String, _ code: Int32) -> DiscoveryError {
        DiscoveryError(.avahiCall, "\(call) failed: \(text(of: code))", call: call, avahiError: code)
    }

    /// `avahi_strerror`: a static English sentence for an `AVAHI_ERR_*` code.
    static func text(of code: Int32) -> String {
        String(cString: avahi_strerror(code))
    }

    /// `AVAHI_IF_UNSPEC`, `AVAHI_PROTO_UNSPEC`, `AVAHI_PROTO_INET`: C enum constants that Swift
    /// imports as `Int`, typed as the parameters that take them.
    static let anyInterface = AvahiIfIndex(AVAHI_IF_UNSPEC)
    static let anyProtocol = AvahiProtocol(AVAHI_PROTO_UNSPEC)
    static let ipv4 = AvahiProtocol(AVAHI_PROTO_INET)

    /// The last error of a client, e.g. after its state became `AVAHI_CLIENT_FAILURE`.
    static func lastError(of client: OpaquePointer) -> Int32 {
        avahi_client_errno(client)
    }
}
