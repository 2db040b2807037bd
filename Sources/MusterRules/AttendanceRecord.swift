public import MusterCore

/// One attendance delta as materialized (issue 36): who entered or left which session, when (the
/// delta's timestamp), at which kiosk (the author's certificate, never the payload).
public struct AttendanceRecord: KioskWrite {
    public let ref: DeltaRef
    public let hlc: HLC
    public let kioskName: String
    public let location: String
    public let sessionID: String
    public let attendeeKey: String
    public let direction: AttendancePayload.Direction

    package init(
        ref: DeltaRef,
        hlc: HLC,
        kioskName: String,
        location: String,
        sessionID: String,
        attendeeKey: String,
        direction: AttendancePayload.Direction
    ) {
        self.ref = ref
        self.hlc = hlc
        self.kioskName = kioskName
        self.location = location
        self.sessionID = sessionID
        self.attendeeKey = attendeeKey
        self.direction = direction
    }

    public var atMillis: Int64 { Int64(clamping: hlc.physicalMillis) }

    /// The order every kiosk reads attendance in: (hlc, author, seq), the replicas' total order.
    public static func precedes(_ a: AttendanceRecord, _ b: AttendanceRecord) -> Bool {
        if a.hlc != b.hlc { return a.hlc < b.hlc }
        if a.ref.author != b.ref.author { return a.ref.author < b.ref.author }
        return a.ref.seq < b.ref.seq
    }
}
