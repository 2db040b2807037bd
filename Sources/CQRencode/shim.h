#ifndef MUSTER_CQRENCODE_SHIM_H
#define MUSTER_CQRENCODE_SHIM_H
// libqrencode (Debian libqrencode-dev, 4.x) draws every QR code Muster shows or prints: the join
// request and bundle on a terminal, the kiosk screen's codes and the ticket code on a badge.
// Only MusterQR imports this module.
#include <qrencode.h>

#endif /* MUSTER_CQRENCODE_SHIM_H */
