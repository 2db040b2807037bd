public import MusterControl

extension ClientError {
    /// A control-socket failure as `muster` reports it: no daemon and no answer both exit 5
    /// ("outcome unknown" once the request was sent).
    public init(_ error: ControlClientError) {
        let code: Code =
            switch error.code {
            case .unreachable: .daemonUnavailable
            case .timeout: .timeout
            case .protocolError: .protocolError
            }
        self.init(code, describing: error)
    }
}
