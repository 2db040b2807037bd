import MusterControl

/// One request on a fresh control-socket connection, the way a kiosk screen makes it, with the
/// outcome classified for the history: a daemon that cannot be reached before the request is sent
/// is a failure; once a byte of the request is sent, no answer means unknown.
struct KioskClient: Sendable {
    enum Reply: Sendable {
        case answer(ControlResponse)
        case notSent(String)
        case noAnswer(String)
    }

    let socketPath: String
    let timeoutMillis: Int

    func send(_ request: ControlRequest) -> Reply {
        let timeout = Duration.milliseconds(timeoutMillis)
        let client = ControlClient(path: socketPath, timeout: timeout, sendTimeout: timeout)
        do {
            return .answer(try client.send(request))
        } catch {
            return error.requestSent ? .noAnswer(error.message) : .notSent(error.message)
        }
    }
}
