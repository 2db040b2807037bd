#ifndef MUSTER_CAVAHI_SHIM_H
#define MUSTER_CAVAHI_SHIM_H
// libavahi-client for LAN discovery (publish and browse `_muster._tcp`).
// Only MusterDiscovery imports this module.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/domain.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>

// Nonzero when `address` is an IPv6 link-local address (fe80::/10). Such an address only means
// something together with the interface it was seen on, so MusterDiscovery appends `%iface`.
// Reading the union's byte array here keeps tuple indexing out of the Swift code.
static inline int muster_avahi_address_is_ipv6_link_local(const AvahiAddress *address) {
    return address->proto == AVAHI_PROTO_INET6
        && address->data.ipv6.address[0] == 0xfe
        && (address->data.ipv6.address[1] & 0xc0) == 0x80;
}

#endif
