import Foundation
public import Logging
public import MusterBadge
public import MusterBadgePrinting
public import MusterControl
import MusterCore
import MusterRules
public import MusterSync

/// Prints badges for `badge` control requests, one at a time (a kiosk has one printer), and
/// records each printed badge as a signed delta so every kiosk's reprint guard knows it.
///
/// The screen asks for the badge only after the check-in was acknowledged, so a print never
/// delays or undoes a check-in. The delta is appended only after CUPS reported the job completed:
/// a badge that never came out does not count as printed. Every failure is logged (with the
/// queue and CUPS's reason) and answered as ``ControlResponse/Outcome/badgeNotPrinted``.
public actor BadgeDesk {
    let handler: ControlHandler
    let renderer: BadgeRenderer
    let printer: BadgePrinter?
    /// What the queue takes: a PDF (a driver queue) or ZPL (a raw Zebra queue).
    let format: BadgeFormat
    let logger: Logger
    /// The peer that prints a self-service badge this kiosk's queue cannot (`[badge] fallback`).
    let neighbour: NeighbourPrinter?

    /// A peer's printer, reached through the sync session (``SyncService/printOnPeer(named:attendeeKey:within:)``).
    public struct NeighbourPrinter: Sendable {
        /// The peer's name as the config gives it: what the screen tells the attendee.
        public let name: String
        public let ask: @Sendable (_ attendeeKey: String) async -> RelayedPrintReply

        public init(name: String, ask: @escaping @Sendable (_ attendeeKey: String) async -> RelayedPrintReply) {
            self.name = name
            self.ask = ask
        }
    }

    /// How long the peer may take: its own print's limit (20 s) and the wait for the check-in, within
    /// the control client's 30 s.
    static let neighbourWait: Duration = .seconds(25)

    public init(
        handler: ControlHandler,
        layout: BadgeLayout,
        printer: BadgePrinter?,
        format: BadgeFormat = .pdf,
        zplDotsPerInch: Double = 203,
        neighbour: NeighbourPrinter? = nil,
        logger: Logger
    ) {
        self.handler = handler
        self.renderer = BadgeRenderer(layout: layout, zplDotsPerInch: zplDotsPerInch)
        self.printer = printer
        self.format = format
        self.neighbour = neighbour
        self.logger = logger
    }

    public func handle(_ order: BadgeOrder) async -> ControlResponse {
        await handle(order, relaying: true)
    }

    /// A peer's self-service badge (its `[badge] fallback` names this kiosk), decided on this replica
    /// (the reprint guard), printed on this kiosk's queue and recorded here. Never passed on again.
    public func printForPeer(_ request: RelayedPrint) async -> RelayedPrintReply {
        let response = await handle(BadgeOrder(attendee: .key(request.attendeeKey)), relaying: false)
        switch response {
        case .badgePrinted(_, let job, _):
            return RelayedPrintReply(id: request.id, outcome: .printed, job: Int64(job))
        case .badgeAlreadyPrinted(_, let message):
            return RelayedPrintReply(id: request.id, outcome: .alreadyPrinted, message: message)
        default:
            return RelayedPrintReply(id: request.id, outcome: .notPrinted, message: response.message ?? "\(response)")
        }
    }

    private func handle(_ order: BadgeOrder, relaying: Bool) async -> ControlResponse {
        let decision: BadgeRequest
        do {
            decision = try handler.replica.view { view in try BadgeRequest.decide(order, view: view) }
        } catch {
            logger.error("badge lookup failed", metadata: ["error": "\(error)"])
            return .failure(.storage, "\(error)")
        }
        switch decision {
        case .answer(let response):
            return response
        case .print(let content, let campaign, let attendee, let reason):
            let (answer, printerFault) = await print(content, campaign: campaign, attendee: attendee, reason: reason)
            guard relaying, printerFault, reason == .selfService, let neighbour else { return answer }
            return await relay(attendee, to: neighbour, instead: answer)
        }
    }

    /// A `badge` line without what it needs (``ControlRequestError/Code/incomplete``), answered in the
    /// order a whole request is: an unknown reason at once; a line naming no attendee after the lock,
    /// so a kiosk without one says it waits for the organizer.
    public func answer(incomplete error: ControlRequestError) -> ControlResponse {
        guard error.field != .badgeReason else { return .failure(.badRequest, error.message) }
        do {
            let locked = try handler.replica.view { view in try view.lock()?.campaignID != nil }
            return locked ? .failure(.badRequest, error.message) : ControlHandler.waitingForLock
        } catch {
            logger.error("badge lookup failed", metadata: ["error": "\(error)"])
            return .failure(.storage, "\(error)")
        }
    }

    /// Renders and prints the badge, then records it; any failure is the attendee's `badge_not_printed`,
    /// with whether it was the printer's (no queue, stopped, refusing, failed or slow job), so that a
    /// peer's printer may print it instead.
    private func print(
        _ content: BadgeContent,
        campaign: String,
        attendee: AttendeeSummary,
        reason: BadgePayload.Reason
    ) async -> (response: ControlResponse, printerFault: Bool) {
        guard let printer else {
            if neighbour == nil {
                logger.error("badge not printed", metadata: ["attendee": "\(attendee.key)", "error": "no printer"])
            }
            return (.badgeNotPrinted(attendee, message: "No printer is configured on this kiosk."), true)
        }
        do {
            let rendering = try renderer.render(content, as: format)
            if !rendering.shortened.isEmpty || !rendering.missingGlyphs.isEmpty {
                logger.warning(
                    "badge text did not fit",
                    metadata: [
                        "attendee": "\(attendee.key)", "shortened": "\(rendering.shortened.map(\.rawValue))",
                        "missing_glyphs": "\(rendering.missingGlyphs.map(\.rawValue))",
                    ]
                )
            }
            let printed = try await printer.print(rendering.bytes, title: "Badge \(attendee.key)", format: format)
            try handler.recordBadge(
                BadgePayload(campaignID: campaign, attendeeKey: attendee.key, reason: reason)
            )
            logger.info(
                "badge printed",
                metadata: [
                    "attendee": "\(attendee.key)", "reason": "\(reason)", "job": "\(printed.jobID)",
                    "queue": "\(printed.queue)", "elapsed": "\(printed.elapsed)",
                ]
            )
            return (.badgePrinted(attendee, job: Int(printed.jobID)), false)
        } catch let error as BadgeError {
            logger.error(
                "badge not printed",
                metadata: ["attendee": "\(attendee.key)", "code": "\(error.code.rawValue)", "error": "\(error)"]
            )
            return (.badgeNotPrinted(attendee, message: error.description), error.isPrinterFault)
        } catch {
            // The badge came out but could not be recorded (disk full): say so; staff may reprint.
            logger.error(
                "badge printed but not recorded",
                metadata: ["attendee": "\(attendee.key)", "error": "\(error)"]
            )
            return (.failure(.storage, "The badge printed but could not be recorded: \(error)"), false)
        }
    }

    /// Asks the neighbour to print the badge this kiosk's printer could not: printed there (the screen
    /// says where to collect it), already printed (the guard, read on the neighbour's replica), or
    /// `instead`, this kiosk's own failure, with the neighbour's reason logged.
    private func relay(
        _ attendee: AttendeeSummary,
        to neighbour: NeighbourPrinter,
        instead: ControlResponse
    ) async -> ControlResponse {
        let reply = await neighbour.ask(attendee.key)
        logger.info(
            "badge relayed to a peer's printer",
            metadata: [
                "attendee": "\(attendee.key)", "peer": "\(neighbour.name)", "outcome": "\(reply.outcome)",
                "job": "\(reply.job)", "reason": "\(reply.message)",
            ]
        )
        switch reply.outcome {
        case .printed: return .badgePrinted(attendee, job: Int(reply.job), at: neighbour.name)
        case .alreadyPrinted:
            // The peer's guard said it (`BadgeRequest`), in its own words: staff output sanitizes them, and
            // the public screen shows its catalog line, never the message.
            return .badgeAlreadyPrinted(attendee, message: reply.message)
        case .notPrinted: return instead
        }
    }
}
