import CAvahi
import Glibc

/// Formats a resolved `AvahiAddress` as the text a socket address is made from.
enum AvahiAddressText {
    /// `10.77.0.2`, `2001:db8::1`, or `fe80::1%eth0` for a link-local address on interface `eth0`
    /// (with the interface index instead when it has no name any more).
    static func host(_ address: UnsafePointer<AvahiAddress>, interface: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        guard avahi_address_snprint(&buffer, buffer.count, address) != nil else { return "" }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard muster_avahi_address_is_ipv6_link_local(address) != 0 else { return text }
        var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE))
        if interface >= 0, if_indextoname(UInt32(interface), &name) != nil {
            return "\(text)%\(name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })"
        }
        return "\(text)%\(interface)"
    }

    static func isIPv4(_ address: UnsafePointer<AvahiAddress>) -> Bool {
        address.pointee.proto == Avahi.ipv4
    }
}
