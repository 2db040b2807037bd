#!/usr/bin/env bash
# Installs the Debian packages Muster builds and tests against, only if one is missing.
# Swift itself is expected at /opt/swift or on PATH (see README).
#
# avahi-daemon and dbus are needed by the lab (scripts/lab), which runs them only inside its own
# network namespaces. Their package scripts would start them on the host; a policy-rc.d that
# refuses every service start keeps the host's interfaces untouched during the install.
#
# dpkg-dev (dpkg-shlibdeps) and lintian build and check the Debian package (make deb);
# debootstrap and systemd-container (systemd-nspawn) run its boot test (make boot-test); nftables
# (nft) makes the fault campaign's partitions and packet faults (make faults); iputils-ping measures
# the round trip printed beside the propagation figure (make bench); tmux drives the real kiosk screen
# on a terminal in the integration tests (KioskScreenTmuxTests); spin (with gcc for its verifier)
# checks the model of the revocation rule (make model, model/README.md); valgrind (callgrind) counts the
# instructions of the instruction-count guard (make guard, BENCHMARKS.md), on a copy of muster-bench
# whose DWARF 5, which valgrind 3.19 cannot read, binutils' objcopy strips.
#
# pretix (issue 35): muster speaks its REST API through URLSession, which links libcurl
# (libcurl4-openssl-dev to build; the package then depends on libcurl4); make interop runs a real
# pretix from PyPI in a virtual environment (python3-venv, with pip from PyPI).
#
# Badges (issue 15): cairo and pango render them (libcairo2-dev, libpango1.0-dev), libqrencode draws
# every QR code (libqrencode-dev), libcups sends them to the printer (libcups2-dev). cups runs the
# private cupsd of the badge tests and cups-ipp-utils its virtual printer (ippeveprinter, which
# also needs a D-Bus bus of its own: dbus); poppler-utils (pdftotext) and zbar-tools (zbarimg) read
# the rendered badges back, and sqlite3 reads the recorded badges from a kiosk's replica. The Noto and DejaVu fonts cover Latin with
# accents, Chinese, Japanese, Korean and Arabic names.
set -euo pipefail
packages=(libsqlite3-dev libsodium-dev libavahi-client-dev pkg-config sqlite3
          avahi-daemon avahi-utils dbus iproute2 util-linux
          debootstrap systemd-container lintian dpkg-dev nftables iputils-ping
          libcairo2-dev libpango1.0-dev libqrencode-dev libcups2-dev cups cups-ipp-utils poppler-utils zbar-tools
          fonts-noto-core fonts-noto-cjk fonts-dejavu-core tmux spin gcc valgrind binutils
          libcurl4-openssl-dev python3-venv)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
echo "Installing: ${missing[*]}"
policy=/usr/sbin/policy-rc.d
made_policy=""
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# muster: no service starts during the install\nexit 101\n' | $sudo_cmd tee "$policy" >/dev/null
    $sudo_cmd chmod +x "$policy"
    made_policy=1
fi
# An if, not `[ … ] && …`: the trap's status would become the script's exit status.
cleanup() { if [ -n "$made_policy" ]; then $sudo_cmd rm -f "$policy"; fi; }
trap cleanup EXIT
$sudo_cmd apt-get update -qq
# --no-install-recommends: libnss-mdns would otherwise come along and edit the host's nsswitch.conf.
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# On a systemd machine, keep the host's avahi-daemon off for good (D-Bus could start it on demand).
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    $sudo_cmd systemctl mask --now avahi-daemon.service avahi-daemon.socket >/dev/null 2>&1 || true
fi
