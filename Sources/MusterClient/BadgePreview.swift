import Foundation
public import MusterBadge
public import MusterControl

/// `muster badge preview QUERY --out FILE.pdf|FILE.png|FILE.zpl`: renders an attendee's badge with this
/// kiosk's layout, without printing and without recording anything.
///
/// Staff commands read the replica directly (read-only), so the preview is drawn in the `muster`
/// process and the file is written with the staff member's own permissions, never by the daemon.
public struct BadgePreview {
    let client: ClientContext

    public init(_ client: ClientContext) { self.client = client }

    /// Renders the badge of the attendee `query` names (email or ticket code) to `path`; the
    /// extension picks PDF, PNG or ZPL.
    public func write(query: String, to path: String) throws(ClientError) -> BadgeRendering {
        let queries = StaffQueries(client)
        let record = try queries.lookup(query)
        let eventName: String
        do {
            eventName = try client.replica().view { try $0.campaignName(id: record.campaignID) } ?? ""
        } catch {
            throw StaffQueries.clientError(error)
        }
        let content = BadgeContent(
            eventName: eventName,
            firstName: record.firstName,
            lastName: record.lastName,
            company: record.company,
            code: record.badgeCode,
            ticketType: record.details?.ticketType ?? ""
        )
        return try Self.render(content, config: client.config.badge, to: path)
    }

    /// Renders `content` with the layout of `config` to `path` (PDF, PNG or ZPL by extension).
    public static func render(
        _ content: BadgeContent,
        config: BadgeConfig,
        to path: String
    ) throws(ClientError)
        -> BadgeRendering
    {
        let rendering: BadgeRendering
        do throws(BadgeError) {
            let layout = try BadgeLayout.parsing(
                size: config.size,
                fields: config.fields,
                typeFields: config.typeFields
            )
            rendering = try BadgeRenderer(layout: layout, zplDotsPerInch: Double(config.dotsPerInch))
                .render(content, as: try BadgeFormat(path: path))
        } catch {
            throw ClientError(error.code == .badLayout ? .usage : .failed, error.description, cause: error)
        }
        do {
            try Data(rendering.bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw ClientError(.failed, "cannot write \(path): \(error.localizedDescription)", cause: nil)
        }
        return rendering
    }
}
