import Foundation
public import Logging
public import MusterBadge
public import MusterBadgePrinting
public import MusterControl
import MusterCore
import MusterStore

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

    public func handle(_ request: ControlRequest) async -> ControlResponse {
        let reasonText = request.badgeReason ?? BadgePayload.Reason.selfService.description
        guard let reason = BadgePayload.Reason.allCases.first(where: { $0.description == reasonText }) else {
            return .failure(.badRequest, "unknown badge reason '\(reasonText)' (self-service, reprint, print-only)")
        }
        let decision: BadgeRequest
        do {
            decision = try handler.replica.view { view in try BadgeRequest.decide(request, reason: reason, view: view) }
        } catch {
            logger.error("badge lookup failed", metadata: ["error": "\(error)"])
            return .failure(.storage, "\(error)")
        }
        guard case .print(let content, let campaign, let attendee, _) = decision else {
            if case .answer(let response) = decision { return response }
            return .failure(.internal, "no badge decision")
        }
        var response = ControlResponse(outcome: .badgeNotPrinted)
        response.attendee = attendee
        guard let printer else {
            logger.error("badge not printed", metadata: ["attendee": "\(attendee.key)", "error": "no printer"])
            response.message = "No printer is configured on this kiosk."
            return response
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
            response.outcome = .badgePrinted
            response.badgeJob = Int(printed.jobID)
            return response
        } catch let error as BadgeError {
            logger.error(
                "badge not printed",
                metadata: ["attendee": "\(attendee.key)", "code": "\(error.code.rawValue)", "error": "\(error)"]
            )
            response.message = error.description
            return response
        } catch {
            // The badge came out but could not be recorded (disk full): say so; staff may reprint.
            logger.error(
                "badge printed but not recorded",
                metadata: ["attendee": "\(attendee.key)", "error": "\(error)"]
            )
            response.outcome = .error
            response.errorCode = .storage
            response.message = "The badge printed but could not be recorded: \(error)"
            return response
        }
    }
}
