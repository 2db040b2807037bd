public import MusterCore

/// A session as materialized (issue 36): the newest version of its id, by (hlc, author, seq), with
/// who wrote it. A spot's host is its author's certificate (name and location from the roster).
public struct SessionRecord: Sendable, Equatable {
    public let payload: SessionPayload
    public let author: AuthorID
    public let hlc: HLC
    /// The writer's name on the roster (a spot's host kiosk); empty for the organizer.
    public let hostName: String

    package init(payload: SessionPayload, author: AuthorID, hlc: HLC, hostName: String) {
        self.payload = payload
        self.author = author
        self.hlc = hlc
        self.hostName = hostName
    }

    public var id: String { payload.id }
    public var name: String { payload.name }
    public var zone: String { payload.zone }
    public var isSpot: Bool { payload.code != nil }

    /// When its doors admit: from ``SessionPayload/opensEarlyMillis`` before the start to the end.
    public func isOpen(atMillis now: Int64) -> Bool {
        now >= payload.startMillis - Int64(payload.opensEarlyMillis) && now < payload.endMillis
    }
}
