import CCups
import Glibc
import MusterBadge

/// One HTTP/IPP connection to a cupsd, and the few IPP operations a badge needs.
///
/// Every call into libcups goes through here and turns a failure into a ``BadgeError`` that names
/// the call and carries `cupsLastErrorString()`, read on the same thread right after the call
/// (libcups keeps its last error per thread, and nothing here suspends between the two).
///
/// Not `Sendable`: it owns an `http_t`, which libcups does not share between threads; one print
/// opens, uses and closes its own.
final class CupsConnection {
    private let http: OpaquePointer
    let queue: CupsQueue

    /// The state of a queue as IPP reports it.
    struct QueueState {
        /// 3 idle, 4 processing, 5 stopped (RFC 8011 `printer-state`).
        var state: Int32
        var accepting: Bool
        var message: String
    }

    init(_ queue: CupsQueue) throws(BadgeError) {
        self.queue = queue
        let server = queue.server ?? String(cString: cupsServer())
        var host = server
        var port = ippPort()
        if !server.hasPrefix("/"), let colon = server.lastIndex(of: ":"),
            let number = Int32(server[server.index(after: colon)...])
        {
            host = String(server[..<colon])
            port = number
        }
        guard let http = httpConnect2(host, port, nil, AF_UNSPEC, HTTP_ENCRYPTION_IF_REQUESTED, 1, 5_000, nil) else {
            throw BadgeError(.printerUnavailable, "CUPS at \(server) is not reachable", cause: Self.lastError())
        }
        self.http = http
    }

    deinit { httpClose(http) }

    /// `Get-Printer-Attributes`: whether the queue exists, is stopped, and accepts jobs.
    func queueState() throws(BadgeError) -> QueueState {
        let response = try request(IPP_OP_GET_PRINTER_ATTRIBUTES, "Get-Printer-Attributes", jobID: nil)
        defer { ippDelete(response) }
        let state = ippFindAttribute(response, "printer-state", IPP_TAG_ENUM).map { ippGetInteger($0, 0) } ?? 0
        let accepting =
            ippFindAttribute(response, "printer-is-accepting-jobs", IPP_TAG_BOOLEAN).map { ippGetBoolean($0, 0) != 0 }
            ?? false
        let message =
            ippFindAttribute(response, "printer-state-message", IPP_TAG_TEXT)
            .flatMap { ippGetString($0, 0, nil) }.map { String(cString: $0) } ?? ""
        return QueueState(state: state, accepting: accepting, message: message)
    }

    /// `Create-Job` then `Send-Document` with the whole PDF: returns the job id.
    func submit(_ document: [UInt8], title: String, format: String = "application/pdf") throws(BadgeError) -> Int32 {
        let job = cupsCreateJob(http, queue.name, title, 0, nil)
        guard job > 0 else {
            throw BadgeError(.printerUnavailable, "CUPS refused a job on \(queue)", cause: Self.lastError())
        }
        guard cupsStartDocument(http, queue.name, job, title, format, 1) == HTTP_STATUS_CONTINUE else {
            throw BadgeError(.printerUnavailable, "CUPS refused the badge for job \(job)", cause: Self.lastError())
        }
        let written = document.withUnsafeBytes { bytes in
            cupsWriteRequestData(http, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
        guard written == HTTP_STATUS_CONTINUE else {
            throw BadgeError(.printerUnavailable, "sending the badge to CUPS failed", cause: Self.lastError())
        }
        let status = cupsFinishDocument(http, queue.name)
        guard status.rawValue < 0x0100 else {
            throw BadgeError(.printerUnavailable, "CUPS did not accept the badge", cause: Self.lastError())
        }
        return job
    }

    /// `Get-Job-Attributes`: the job's state (RFC 8011: 3 pending … 9 completed) and its reasons.
    func jobState(_ job: Int32) throws(BadgeError) -> (state: Int32, reasons: [String]) {
        let response = try request(IPP_OP_GET_JOB_ATTRIBUTES, "Get-Job-Attributes", jobID: job)
        defer { ippDelete(response) }
        let state = ippFindAttribute(response, "job-state", IPP_TAG_ENUM).map { ippGetInteger($0, 0) } ?? 0
        var reasons: [String] = []
        if let attribute = ippFindAttribute(response, "job-state-reasons", IPP_TAG_KEYWORD) {
            for index in 0..<ippGetCount(attribute) {
                if let text = ippGetString(attribute, index, nil) { reasons.append(String(cString: text)) }
            }
        }
        return (state, reasons)
    }

    /// Cancels and purges a job that will not print now (a stopped queue, a timeout), so that it
    /// does not come out of the printer later, unasked, when staff restart the queue.
    func cancel(_ job: Int32) {
        _ = cupsCancelJob2(http, queue.name, job, 1)
    }

    private func request(_ operation: ipp_op_t, _ name: String, jobID: Int32?) throws(BadgeError) -> OpaquePointer {
        guard let request = ippNewRequest(operation) else {
            throw BadgeError(.printerUnavailable, "\(name): out of memory")
        }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "printer-uri", nil, queue.uri)
        if let jobID { ippAddInteger(request, IPP_TAG_OPERATION, IPP_TAG_INTEGER, "job-id", jobID) }
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_NAME, "requesting-user-name", nil, cupsUser())
        // cupsDoRequest frees the request.
        guard let response = cupsDoRequest(http, request, "/") else {
            throw BadgeError(.printerUnavailable, "\(name) on \(queue) failed", cause: Self.lastError())
        }
        guard ippGetStatusCode(response).rawValue < 0x0100 else {
            ippDelete(response)
            throw BadgeError(.printerUnavailable, "\(name) on \(queue) was refused", cause: Self.lastError())
        }
        return response
    }

    static func lastError() -> String {
        cupsLastErrorString().map { String(cString: $0) } ?? "no reason given"
    }
}
