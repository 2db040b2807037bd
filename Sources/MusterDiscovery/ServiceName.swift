import CAvahi

/// DNS-SD instance names: validity and the renaming rule for collisions.
///
/// Both rules are Avahi's own (`avahi_is_valid_service_name`, `avahi_alternative_service_name`)
/// rather than a copy, so a renamed kiosk looks the same as any other renamed service on the
/// LAN (`muster-… #2`, `#3`, …) and never exceeds the 63-byte label limit.
enum ServiceName {
    /// Whether Avahi accepts `name` as a service instance name (1–63 bytes of UTF-8).
    static func isValid(_ name: String) -> Bool {
        avahi_is_valid_service_name(name) != 0
    }

    /// The name to try after `name` collided with another host's service: `X` → `X #2` → `X #3`.
    static func alternative(to name: String) throws(DiscoveryError) -> String {
        let renamed = try Avahi.check(
            "avahi_alternative_service_name",
            avahi_alternative_service_name(name),
            errorCode: Int32(AVAHI_ERR_NO_MEMORY)
        )
        defer { avahi_free(renamed) }
        return String(cString: renamed)
    }
}
