#ifndef MUSTER_CCUPS_SHIM_H
#define MUSTER_CCUPS_SHIM_H
// libcups (Debian libcups2-dev) sends badges to the kiosk's CUPS queue over IPP and follows the
// job to completion. Debian ships no cups.pc, so the module links -lcups directly.
// Only MusterBadge imports this module.
#include <cups/cups.h>
#include <cups/ipp.h>

#endif /* MUSTER_CCUPS_SHIM_H */
