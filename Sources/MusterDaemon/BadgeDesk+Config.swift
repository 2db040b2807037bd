public import Logging
public import MusterBadge
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
        logger: Logger
    ) throws(DaemonError) -> BadgeDesk {
        let layout: BadgeLayout
        var printer: BadgePrinter?
        do {
            layout = BadgeLayout(
                size: try BadgeSize(parsing: config.badge.size),
                fields: try BadgeLayout.fields(parsing: config.badge.fields)
            )
            if let name = config.badge.printer {
                printer = BadgePrinter(queue: try CupsQueue(name: name, server: config.badge.cupsServer), time: time)
            }
        } catch {
            throw DaemonError(.config, "badge: \(error.message)", cause: error)
        }
        return BadgeDesk(handler: handler, layout: layout, printer: printer, logger: logger)
    }
}
