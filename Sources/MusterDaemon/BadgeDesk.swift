import Foundation
public import Logging
public import MusterBadge
public import MusterBadgePrinting
public import MusterControl
import MusterCore
import MusterRules

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

    public init(
        handler: ControlHandler,
        layout: BadgeLayout,
        printer: BadgePrinter?,
        format: BadgeFormat = .pdf,
        zplDotsPerInch: Double = 203,
        logger: Logger
    ) {
        self.handler = handler
        self.renderer = BadgeRenderer(layout: layout, zplDotsPerInch: zplDotsPerInch)
        self.printer = printer
        self.format = format
        self.logger = logger
    }

    public func handle(_ order: BadgeOrder) async -> ControlResponse {
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
            return await print(content, campaign: campaign, attendee: attendee, reason: reason)
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

    /// Renders and prints the badge, then records it; any failure is the attendee's `badge_not_printed`.
    private func print(
        _ content: BadgeContent,
        campaign: String,
        attendee: AttendeeSummary,
        reason: BadgePayload.Reason
    ) async -> ControlResponse {
        guard let printer else {
            logger.error("badge not printed", metadata: ["attendee": "\(attendee.key)", "error": "no printer"])
            return .badgeNotPrinted(attendee, message: "No printer is configured on this kiosk.")
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
            return .badgePrinted(attendee, job: Int(printed.jobID))
        } catch let error as BadgeError {
            logger.error(
                "badge not printed",
                metadata: ["attendee": "\(attendee.key)", "code": "\(error.code.rawValue)", "error": "\(error)"]
            )
            return .badgeNotPrinted(attendee, message: error.description)
        } catch {
            // The badge came out but could not be recorded (disk full): say so; staff may reprint.
            logger.error(
                "badge printed but not recorded",
                metadata: ["attendee": "\(attendee.key)", "error": "\(error)"]
            )
            return .failure(.storage, "The badge printed but could not be recorded: \(error)")
        }
    }
}
