import MusterControl
public import MusterCore

/// Why the daemon could not start or keep running. The message says what to do; the cause is the
/// error underneath, when there was one.
public typealias DaemonError = CodedError<DaemonErrorCode>

/// What kind of failure a ``DaemonError`` is; `musterd` exits 78 on those a person must act on
/// (``needsPerson``).
public enum DaemonErrorCode: Sendable, Equatable {
    case config, venue, stateDirectory, kioskKey, replica, controlSocket, notEnrolled, revoked
    /// The config's location is not the certificate's (``KioskIdentity/checkLocation(config:enrollment:)``).
    case location
    /// The state directory or the replica may be read by other users (``StatePermissions``).
    case permissions

    /// Whether restarting cannot help: someone must enroll, re-enroll, fix the config or a mode.
    public var needsPerson: Bool {
        switch self {
        case .notEnrolled, .revoked, .location, .permissions: true
        default: false
        }
    }
}

extension DaemonError {
    /// The daemon's reading of a kiosk key or certificate failure.
    init(_ error: KioskIdentityError) {
        let code: Code =
            switch error.code {
            case .kioskKey: .kioskKey
            case .certificate: .notEnrolled
            case .stateDirectory: .stateDirectory
            case .location: .location
            }
        self.init(code, describing: error)
    }
}
