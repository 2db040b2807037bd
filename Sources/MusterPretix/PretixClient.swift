import Foundation
public import MusterAttendeeList

/// Muster's two conversations with a pretix, each over its REST API: before the event, the check-in
/// list as an attendee list (``attendeeList()``); after it, every scan the doors recorded
/// (``push(_:)``).
public struct PretixClient: Sendable {
    let http: PretixHTTP

    public init(_ target: PretixTarget) {
        http = PretixHTTP(target: target)
    }

    /// The check-in list's positions, the event's products and its orders, read as an import.
    public func attendeeList() throws(PretixError) -> AttendeeListImport {
        let target = http.target
        let positions = try http.pages(
            target.eventURL("checkinlists/\(target.list)/positions/"),
            of: PretixRecords.Position.self
        )
        let items = try http.pages(target.eventURL("items/"), of: PretixRecords.Item.self)
        let orders = try http.pages(target.eventURL("orders/"), of: PretixRecords.Order.self)
        do {
            return try AttendeeListImport.pretix(positions: positions, items: items, orders: orders)
        } catch {
            throw .unreadable("position \(error.line)", error.explanation)
        }
    }

    /// What a push did: scans pretix took (new ones and ones it already held under the same nonce,
    /// which it does not tell apart) and scans it refused, with its reason.
    public struct PushReport: Sendable, Equatable {
        public struct Refusal: Sendable, Equatable {
            public let scan: PretixRedeem
            public let status: Int
            public let reason: String
        }

        public var accepted = 0
        public var refused: [Refusal] = []
    }

    /// Sends every scan, oldest first (pretix orders a ticket's check-ins by their time). A scan pretix
    /// refuses (an unknown secret, a ticket not on the list) is reported and the rest still go.
    public func push(_ scans: [PretixRedeem]) throws(PretixError) -> PushReport {
        var report = PushReport()
        let url = http.target.organizerURL("checkinrpc/redeem/")
        let encoder = JSONEncoder()
        for scan in scans {
            let body: Data
            do {
                body = try encoder.encode(scan)
            } catch {
                throw .unreadable(url.path, "\(error)")
            }
            let (status, data) = try http.send(url, body: body)
            switch status {
            case 200, 201: report.accepted += 1
            case 400, 404: report.refused.append(.init(scan: scan, status: status, reason: PretixHTTP.words(data)))
            default: throw .refused(status, url.path, PretixHTTP.words(data))
            }
        }
        return report
    }
}
