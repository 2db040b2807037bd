public import Logging
import MusterBadge
import MusterBadgePrinting
public import MusterControl
public import MusterTime

extension BadgeDesk {
    /// The badge desk a kiosk's config describes: its layout and, when `printer` is set, its
    /// CUPS queue. A size, field or queue name the badge code does not know stops the daemon at
    /// start-up, so a typo shows before the doors open rather than at the first attendee.
    public static func make(
        config: KioskConfig,
        handler: ControlHandler,
        time: any TimeSource,
        neighbour: NeighbourPrinter? = nil,
        logger: Logger
    ) throws(DaemonError) -> BadgeDesk {
        let layout: BadgeLayout
        var printer: BadgePrinter?
        let format: BadgeFormat
        do {
            layout = try BadgeLayout.parsing(
                size: config.badge.size,
                fields: config.badge.fields,
                typeFields: config.badge.typeFields
            )
            format = try Self.printFormat(config.badge.format)
            if let name = config.badge.printer {
                printer = BadgePrinter(queue: try CupsQueue(name: name, server: config.badge.cupsServer), time: time)
            }
        } catch {
            throw DaemonError(.config, "badge: \(error.message)", cause: error)
        }
        return BadgeDesk(
            handler: handler,
            layout: layout,
            printer: printer,
            format: format,
            zplDotsPerInch: Double(config.badge.dotsPerInch),
            neighbour: neighbour,
            logger: logger
        )
    }

    /// The badge printer in words for the kiosk's status (`muster fleet`): "none" without a queue,
    /// else the queue and what CUPS says of it.
    static func printerWords(config: KioskConfig, time: any TimeSource) -> String {
        guard let name = config.badge.printer else { return "none" }
        guard let queue = try? CupsQueue(name: name, server: config.badge.cupsServer) else { return "\(name): invalid" }
        return BadgePrinter(queue: queue, time: time).stateWords()
    }

    /// `badge.format`: what the queue is fed, a PDF (any driver queue) or ZPL (a raw Zebra queue).
    static func printFormat(_ name: String) throws(BadgeError) -> BadgeFormat {
        switch name {
        case "pdf": return .pdf
        case "zpl": return .zpl
        default: throw BadgeError(.badLayout, "badge format '\(name)' is not pdf or zpl")
        }
    }
}
