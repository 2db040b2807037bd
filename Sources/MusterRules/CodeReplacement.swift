public import MusterCore

/// One replacement of an attendee's badge code as materialized (``BadgeCodePayload``): the new
/// code (nil: the list's code given back), when, and at which desk. The kiosk name and location come
/// from the author's certificate on the roster, never from the payload.
public struct CodeReplacement: KioskWrite {
    public let ref: DeltaRef
    public let hlc: HLC
    public let code: String?
    public let kioskName: String
    public let location: String

    /// Memberwise, for the stores that build it from their rows.
    package init(ref: DeltaRef, hlc: HLC, code: String?, kioskName: String, location: String) {
        self.ref = ref
        self.hlc = hlc
        self.code = code
        self.kioskName = kioskName
        self.location = location
    }
}
