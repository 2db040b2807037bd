#!/usr/bin/env bash
# A working kiosk on a temporary state directory: a new venue, sample attendees, a lock, and the
# kiosk screen. Ends (and stops the daemon, and removes the directory) at end of input (Ctrl-D).
set -euo pipefail
bin="${MUSTER_BIN:-$(cd "$(dirname "$0")/.." && pwd)/.build/debug}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d /tmp/muster-demo.XXXXXX)"
daemon=""
cleanup() {
    [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

"$bin/muster" venue create --out "$dir/venue" --name "Demo Venue" >/dev/null
cat > "$dir/musterd.toml" <<TOML
name = "Demo kiosk"
location = "Main entrance"
state_dir = "state"
control_socket = "run/control.sock"
venue = "joined-venue.toml"
listen = "127.0.0.1:0"
static_peers = []
discovery = false
TOML
export MUSTER_CONFIG="$dir/musterd.toml"
key="$dir/venue/organizer.key"
# Enroll the kiosk as a technician and the organizer would: request, enroll, join.
request=$("$bin/muster" join-request --text-only | tail -n 1)
bundle=$("$bin/muster" enroll "$request" --organizer-key "$key" --text-only 2>/dev/null | tail -n 1)
"$bin/muster" join "$bundle"
"$bin/musterd" --config "$MUSTER_CONFIG" --log-level warning 2>"$dir/musterd.log" &
daemon=$!
for _ in $(seq 1 100); do
    [ -S "$dir/run/control.sock" ] && break
    kill -0 "$daemon" 2>/dev/null || { cat "$dir/musterd.log" >&2; exit 1; }
    sleep 0.1
done
"$bin/muster" import "$root/scripts/sample-attendees.csv" --campaign "DevConf 2026" --organizer-key "$key"
"$bin/muster" lock "DevConf 2026" --organizer-key "$key" --status Attended
# The first attendee's badge, rendered as this kiosk would print it (no printer needed); kept
# after the demo ends, outside the temporary directory.
first=$(sed -n '2p' "$root/scripts/sample-attendees.csv" | cut -d, -f1)
preview="${MUSTER_DEMO_BADGE:-/tmp/muster-demo-badge.png}"
"$bin/muster" badge preview "$first" --out "$preview" >/dev/null
echo "Badge preview of $first: $preview"
echo
echo "Kiosk config: $MUSTER_CONFIG (in another terminal: MUSTER_CONFIG=$MUSTER_CONFIG $bin/muster status)"
echo "Try: ada.lovelace@analytical.example, ticket MUS-0002, or 'new'. End with Ctrl-D."
echo
"$bin/muster" kiosk
