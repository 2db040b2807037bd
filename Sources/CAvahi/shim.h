#ifndef MUSTER_CAVAHI_SHIM_H
#define MUSTER_CAVAHI_SHIM_H
// libavahi-client for LAN discovery (publish and browse `_muster._tcp`).
// Only MusterDiscovery imports this module.
#include <stddef.h>
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
#include <avahi-common/timeval.h>

// Nonzero when `address` is an IPv6 link-local address (fe80::/10). Such an address only means
// something together with the interface it was seen on, so MusterDiscovery appends `%iface`.
// Reading the union's byte array here keeps tuple indexing out of the Swift code.
static inline int muster_avahi_address_is_ipv6_link_local(const AvahiAddress *address) {
    return address->proto == AVAHI_PROTO_INET6
        && address->data.ipv6.address[0] == 0xfe
        && (address->data.ipv6.address[1] & 0xc0) == 0x80;
}

// A timer on the poll's own thread, created disarmed. AvahiPoll's timer functions are function
// pointers taking absolute times; these take a delay and read as plain calls from Swift.
static inline AvahiTimeout *muster_avahi_timer_new(const AvahiPoll *api, AvahiTimeoutCallback callback,
                                                   void *userdata) {
    return api->timeout_new(api, NULL, callback, userdata);
}

// Fires the timer once, `msec` milliseconds from now (replacing any earlier time).
static inline void muster_avahi_timer_arm(const AvahiPoll *api, AvahiTimeout *timer, unsigned msec) {
    struct timeval when;
    avahi_elapse_time(&when, msec, 0);
    api->timeout_update(timer, &when);
}

// Stops an armed timer from firing (it can be armed again).
static inline void muster_avahi_timer_disarm(const AvahiPoll *api, AvahiTimeout *timer) {
    api->timeout_update(timer, NULL);
}

static inline void muster_avahi_timer_free(const AvahiPoll *api, AvahiTimeout *timer) {
    api->timeout_free(timer);
}

#endif
