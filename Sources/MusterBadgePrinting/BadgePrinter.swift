public import MusterBadge
public import MusterTime

/// Sends a badge PDF to a CUPS queue over IPP and follows the job until it completed, failed, or
/// the queue stopped.
///
/// "Printed" is a replicated fact in Muster (the reprint guard), so it must mean the job
/// completed: a job that is accepted but sits in a stopped queue is cancelled and reported, never
/// counted, and no badge surprises the staff desk later when the queue is restarted. A queue that
/// is stopped or refusing before the job is sent is reported at once, without a job.
///
/// The IPP calls are short requests to the local cupsd; between them the printer waits on the
/// injected clock, so the poll interval and the time limit run in virtual time in tests.
public struct BadgePrinter: Sendable {
    public let queue: CupsQueue
    public let time: any TimeSource
    /// How long a job may take from submission to completion; a label printer prints a badge in
    /// one to three seconds, so the default leaves room for a slow first page and still answers
    /// before the control client gives up (30 s).
    public var timeout: Duration
    public var pollInterval: Duration

    public init(
        queue: CupsQueue,
        time: any TimeSource,
        timeout: Duration = .seconds(20),
        pollInterval: Duration = .milliseconds(50)
    ) {
        self.queue = queue
        self.time = time
        self.timeout = timeout
        self.pollInterval = pollInterval
    }

    /// Prints `document` (a PDF, or ZPL for a raw Zebra queue) as job `title` and returns once
    /// CUPS reports it completed.
    ///
    /// - Throws: ``BadgeError`` with ``BadgeError/Code/printerUnavailable`` (no cupsd, no such
    ///   queue, stopped or rejecting), ``BadgeError/Code/printFailed`` (aborted, cancelled, or the
    ///   queue stopped while the job waited) or ``BadgeError/Code/printTimedOut``.
    /// The queue's state in words for the fleet (`muster fleet`, which sanitizes it): "ready", "printing", "stopped
    /// (CUPS's reason)", "not accepting jobs", or why CUPS could not be asked.
    public func stateWords() -> String {
        do {
            let state = try CupsConnection(queue).queueState()
            let words =
                switch state.state {
                case Self.printerStopped: "stopped"
                case 4: "printing"
                default: state.accepting ? "ready" : "not accepting jobs"
                }
            let reason = String(state.message.prefix(80))  // sanitized where it is shown
            return "\(queue.name): \(words)" + (reason.isEmpty || words == "ready" ? "" : " (\(reason))")
        } catch {
            return "\(queue.name): unreachable"
        }
    }

    public func print(
        _ document: [UInt8],
        title: String,
        format: BadgeFormat = .pdf
    ) async throws(BadgeError) -> PrintedBadge {
        let started = time.uptime
        let connection = try CupsConnection(queue)
        let before = try connection.queueState()
        guard before.state != Self.printerStopped else {
            throw BadgeError(.printerUnavailable, "the printer queue \(queue) is stopped", cause: before.message)
        }
        guard before.accepting else {
            throw BadgeError(
                .printerUnavailable,
                "the printer queue \(queue) is not accepting jobs",
                cause: before.message
            )
        }
        let job = try connection.submit(document, title: title, format: format.documentFormat)
        let deadline = time.deadline(after: timeout)
        while true {
            let (state, reasons) = try connection.jobState(job)
            switch state {
            case Self.jobCompleted:
                return PrintedBadge(queue: queue.name, jobID: job, elapsed: time.uptime - started)
            case Self.jobCanceled, Self.jobAborted:
                let how = state == Self.jobAborted ? "aborted" : "cancelled"
                throw BadgeError(
                    .printFailed,
                    "job \(job) on \(queue) was \(how)",
                    cause: reasons.joined(separator: ", ")
                )
            default:
                break
            }
            let now = try connection.queueState()
            if now.state == Self.printerStopped {
                connection.cancel(job)
                throw BadgeError(
                    .printFailed,
                    "the printer queue \(queue) stopped before job \(job) printed",
                    cause: now.message
                )
            }
            guard time.uptime < deadline else {
                connection.cancel(job)
                throw BadgeError(.printTimedOut, "job \(job) on \(queue) did not complete within \(timeout)")
            }
            do {
                try await time.sleep(for: pollInterval)
            } catch {
                connection.cancel(job)
                throw BadgeError(.printFailed, "printing job \(job) was interrupted", cause: "\(error)")
            }
        }
    }

    /// Hands `document` to CUPS (queue checked, `Create-Job`, `Send-Document`) and returns the job
    /// id without following the job: what the benchmark times as "submit", and what a caller that
    /// follows jobs by other means would use.
    public func submit(_ document: [UInt8], title: String, format: BadgeFormat = .pdf) throws(BadgeError) -> Int32 {
        let connection = try CupsConnection(queue)
        let state = try connection.queueState()
        guard state.state != Self.printerStopped, state.accepting else {
            throw BadgeError(
                .printerUnavailable,
                "the printer queue \(queue) is stopped or rejecting",
                cause: state.message
            )
        }
        return try connection.submit(document, title: title, format: format.documentFormat)
    }

    // RFC 8011 `printer-state` and `job-state` values.
    static let printerStopped: Int32 = 5
    static let jobCanceled: Int32 = 7
    static let jobAborted: Int32 = 8
    static let jobCompleted: Int32 = 9
}
