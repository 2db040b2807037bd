#!/usr/bin/env bash
# Installs the Debian packages Muster builds and tests against, only if one is missing.
# Swift itself is expected at /opt/swift or on PATH (see README).
set -euo pipefail
packages=(libsqlite3-dev libsodium-dev libavahi-client-dev pkg-config sqlite3)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    echo "Installing: ${missing[*]}"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
