public import MusterCore

/// Why a `muster` command failed, with the exit code scripts can rely on.
public typealias ClientError = CodedError<ClientErrorCode>

/// What kind of failure a ``ClientError`` is; each maps to one exit code (`exitCode`).
public enum ClientErrorCode: Sendable, Equatable {
    case usage, config, daemonUnavailable, timeout, protocolError, notFound, alreadyCheckedIn, refused, failed
}

extension ClientError {
    /// 0 success; 1 error; 2 not found; 3 already checked in; 4 refused (no lock, window, invalid ticket);
    /// 5 daemon unreachable or no answer (outcome unknown); 64 usage.
    public var exitCode: Int32 {
        switch code {
        case .notFound: 2
        case .alreadyCheckedIn: 3
        case .refused: 4
        case .daemonUnavailable, .timeout: 5
        case .usage: 64
        case .config, .protocolError, .failed: 1
        }
    }
}
