import CAvahi

/// Conversions between `[String]` and Avahi's TXT string lists, so no `AvahiStringList` pointer
/// escapes the one call that needs it.
enum AvahiStringList {
    /// Most TXT entries read from one record; ours has three, the rest is ignored.
    static let maxEntries = 32

    /// Builds a list from `entries`, passes it to `body`, and frees it. (Building with
    /// `avahi_string_list_add` avoids the variadic `avahi_string_list_new`.)
    static func with<R>(
        _ entries: [String],
        _ body: (UnsafeMutablePointer<CAvahi.AvahiStringList>?) throws(DiscoveryError) -> R
    ) throws(DiscoveryError) -> R {
        var list: UnsafeMutablePointer<CAvahi.AvahiStringList>? = nil
        defer { avahi_string_list_free(list) }
        for entry in entries.reversed() {  // `add` prepends
            list = try Avahi.check(
                "avahi_string_list_add",
                avahi_string_list_add(list, entry),
                errorCode: Int32(AVAHI_ERR_NO_MEMORY)
            )
        }
        return try body(list)
    }

    /// Copies the entries of a received list (at most ``maxEntries``) as raw bytes.
    static func entries(of list: UnsafeMutablePointer<CAvahi.AvahiStringList>?) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var node = list
        while let current = node, result.count < maxEntries {
            let size = avahi_string_list_get_size(current)
            if let text = avahi_string_list_get_text(current) {
                result.append(Array(UnsafeBufferPointer(start: text, count: size)))
            }
            node = avahi_string_list_get_next(current)
        }
        return result
    }
}
