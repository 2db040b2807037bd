public import MusterCore

/// One add-on handed out, as materialized: which add-on, by which desk, when. The desk's name and
/// location come from the author's certificate on the roster, never from the payload.
public struct RedemptionRecord: KioskWrite {
    public let ref: DeltaRef
    public let hlc: HLC
    public let addon: String
    public let kioskName: String
    public let location: String

    /// Memberwise, for the stores that build it from their rows.
    package init(ref: DeltaRef, hlc: HLC, addon: String, kioskName: String, location: String) {
        self.ref = ref
        self.hlc = hlc
        self.addon = addon
        self.kioskName = kioskName
        self.location = location
    }
}
