/// Why a badge could not be laid out, rendered or printed: a code a caller can act on, a message a
/// person can act on, and the underlying cause (a cairo status, an IPP status, an errno).
public struct BadgeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// The config's size or field list is wrong.
        case badLayout
        /// cairo or pango failed (out of memory, a surface error).
        case renderFailed
        /// No printer is configured on this kiosk.
        case noPrinter
        /// CUPS is not reachable, the queue does not exist or does not accept jobs (stopped,
        /// rejecting), or refused the job.
        case printerUnavailable
        /// The job was accepted but ended aborted or cancelled, or its queue stopped.
        case printFailed
        /// The job did not complete within the time allowed.
        case printTimedOut
    }

    public let code: Code
    public let message: String
    /// What the library said, verbatim (`cupsLastErrorString()`, `cairo_status_to_string`).
    public let cause: String?

    public init(_ code: Code, _ message: String, cause: String? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The queue here could not print it, and nothing of it came out (a job whose queue stopped is
    /// cancelled first): another kiosk's printer may print it instead (`[badge] fallback`). Not after a
    /// job that timed out (the attendee has waited 20 s already, and the control client gives up at
    /// 30), nor after a layout or rendering failure, which is not the printer's.
    public var isPrinterFault: Bool {
        switch code {
        case .noPrinter, .printerUnavailable, .printFailed: true
        case .badLayout, .renderFailed, .printTimedOut: false
        }
    }

    public var description: String {
        cause.map { "\(message) (\($0))" } ?? message
    }
}
