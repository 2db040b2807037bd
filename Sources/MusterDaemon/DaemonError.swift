import MusterControl
public import MusterCore

/// Why the daemon could not start or keep running. The message says what to do; the cause is the
/// error underneath, when there was one.
public typealias DaemonError = CodedError<DaemonErrorCode>

/// What kind of failure a ``DaemonError`` is; `musterd` exits 78 on ``notEnrolled`` and ``revoked``.
public enum DaemonErrorCode: Sendable, Equatable {
    case config, venue, stateDirectory, kioskKey, replica, controlSocket, notEnrolled, revoked
}

extension DaemonError {
    /// The daemon's reading of a kiosk key or certificate failure.
    init(_ error: KioskIdentityError) {
        let code: Code =
            switch error.code {
            case .kioskKey: .kioskKey
            case .certificate: .notEnrolled
            case .stateDirectory: .stateDirectory
            }
        self.init(code, describing: error)
    }
}
