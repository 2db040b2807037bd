extension DiscoveryConfiguration {
    /// Checks everything that would otherwise fail inside Avahi's thread, where the only remedy
    /// would be an endless reconnect loop: the name, the port and the TXT values.
    func validatedRecord() throws(DiscoveryError) -> MusterTXTRecord {
        guard ServiceName.isValid(serviceName) else {
            throw DiscoveryError(
                .badConfiguration,
                "The service name '\(serviceName)' is not a valid DNS-SD name (1 to 63 bytes)."
            )
        }
        guard (1...65_535).contains(port) else {
            throw DiscoveryError(.badConfiguration, "The discovery port \(port) is not between 1 and 65535.")
        }
        do {
            return try MusterTXTRecord(protocolVersion: protocolVersion, venueID: venueID, fingerprint: fingerprint)
        } catch {
            throw DiscoveryError(.badConfiguration, "Cannot announce this kiosk: \(error.description).")
        }
    }
}
