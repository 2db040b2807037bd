#ifndef MUSTER_CAVAHI_SHIM_H
#define MUSTER_CAVAHI_SHIM_H
// libavahi-client for LAN discovery (publish and browse `_muster._tcp`).
// Only MusterDiscovery imports this module.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#endif
