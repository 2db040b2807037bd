extension PresenceRecord {
    /// When and where this arrival happened, as a kiosk shows it.
    public var summary: PresenceSummary {
        PresenceSummary(atMillis: hlc.physicalMillis, kioskName: kioskName, location: location)
    }
}
