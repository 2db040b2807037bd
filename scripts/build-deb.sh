#!/usr/bin/env bash
# Builds the Debian package muster_VERSION_ARCH.deb in the checkout (make deb), and checks it.
#
#   VERSION  the top entry of packaging/changelog (the one place it is written)
#   ARCH     dpkg --print-architecture
#
# The binaries come from a release build with the Swift runtime linked in statically
# (--scratch-path .build-release); glibc, libstdc++, libsodium, avahi-client and sqlite3 stay
# shared, and Depends is computed from them by dpkg-shlibdeps. The package is assembled under
# .build-deb/, built with dpkg-deb --root-owner-group and checked with lintian (errors fail).
#
# Environment: SWIFT (default swift), SKIP_SWIFT_BUILD=1 reuses the binaries already in
# .build-release, LINTIAN=0 skips lintian.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export PATH="/opt/swift/usr/bin:$PATH"
swift_cmd="${SWIFT:-swift}"

die() { echo "build-deb: $*" >&2; exit 1; }
say() { echo "build-deb: $*"; }

for tool in dpkg-deb dpkg-shlibdeps dpkg-parsechangelog ldd strip gzip md5sum; do
    command -v "$tool" >/dev/null 2>&1 || die "missing $tool (apt-get install dpkg-dev binutils; or scripts/install-deps.sh)"
done

version=$(dpkg-parsechangelog -l packaging/changelog -S Version)
arch=$(dpkg --print-architecture)
[ -n "$version" ] && [ -n "$arch" ] || die "no version in packaging/changelog or no dpkg architecture"
package="muster_${version}_${arch}"
output="$root/$package.deb"
# Timestamps inside the package: the changelog entry's date, so the same tree gives the same package.
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l packaging/changelog -S Timestamp)
export SOURCE_DATE_EPOCH

# --- binaries ------------------------------------------------------------------------------------

scratch=.build-release
# Full RELRO and immediate binding, as Debian's hardening flags give C programs.
link_flags=(-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now)
if [ "${SKIP_SWIFT_BUILD:-0}" != 1 ]; then
    for product in musterd muster; do
        say "swift build -c release --static-swift-stdlib --product $product"
        "$swift_cmd" build -c release --static-swift-stdlib --scratch-path "$scratch" "${link_flags[@]}" --product "$product"
    done
fi
bin_dir=$("$swift_cmd" build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
for product in musterd muster; do
    [ -x "$bin_dir/$product" ] || die "no $bin_dir/$product (run without SKIP_SWIFT_BUILD)"
    # Nothing of the Swift toolchain may be left to load at run time: a kiosk has no /opt/swift.
    if leftover=$(ldd "$bin_dir/$product" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libXCTest|/opt/swift'); then
        die "$product still loads Swift libraries dynamically:"$'\n'"$leftover"
    fi
    ldd "$bin_dir/$product" | grep -q 'not found' && die "$product: a shared library is not found: $(ldd "$bin_dir/$product")"
done

# --- the tree ------------------------------------------------------------------------------------

stage="$root/.build-deb/$package"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
install -d -m 0755 "$stage/usr/bin" "$stage/lib/systemd/system" "$stage/etc/muster" \
    "$stage/usr/share/doc/muster" "$stage/usr/share/man/man1" "$stage/usr/share/man/man8" \
    "$stage/usr/share/lintian/overrides"

for product in musterd muster; do
    install -m 0755 "$bin_dir/$product" "$stage/usr/bin/$product"
    # As dh_strip does: symbols and notes out; the Swift metadata sections are allocated and stay.
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/$product"
done
install -m 0644 systemd/musterd.service systemd/muster-kiosk@.service "$stage/lib/systemd/system/"
# Console lockdown of a kiosk (docs/kiosk-screen.md, "Console lockdown"): no spare virtual terminals, no SysRq,
# no Ctrl-Alt-Del burst reboot; the postinst masks ctrl-alt-del.target.
install -d -m 0755 "$stage/usr/lib/systemd/logind.conf.d" "$stage/usr/lib/sysctl.d" "$stage/usr/lib/systemd/system.conf.d"
install -m 0644 packaging/lockdown/logind-muster-kiosk.conf "$stage/usr/lib/systemd/logind.conf.d/muster-kiosk.conf"
install -m 0644 packaging/lockdown/sysctl-muster-kiosk.conf "$stage/usr/lib/sysctl.d/60-muster-kiosk.conf"
install -m 0644 packaging/lockdown/system-muster-kiosk.conf "$stage/usr/lib/systemd/system.conf.d/muster-kiosk.conf"

# The packaged config: config/musterd.toml with the venue file in the state directory, so that
# `muster join`, run as user muster, can write it (see docs/kiosk-install.md, "Where the venue file lives").
sed -e 's|^venue = .*|# Packaged: in state_dir, so that `muster join`, run as user muster, can write it.\
venue = "/var/lib/muster/venue.toml"|' config/musterd.toml >"$stage/etc/muster/musterd.toml"
chmod 0644 "$stage/etc/muster/musterd.toml"
for expected in 'state_dir = "/var/lib/muster"' 'control_socket = "/run/muster/control.sock"' \
    'venue = "/var/lib/muster/venue.toml"'; do
    grep -qxF "$expected" "$stage/etc/muster/musterd.toml" || die "packaged musterd.toml lacks the line: $expected"
done

install -m 0644 README.md SECURITY.md packaging/copyright "$stage/usr/share/doc/muster/"
# The guides the README links to, at the same relative paths (docs/organizer.md, …).
install -d -m 0755 "$stage/usr/share/doc/muster/docs"
install -m 0644 docs/*.md "$stage/usr/share/doc/muster/docs/"
gzip -9n <packaging/changelog >"$stage/usr/share/doc/muster/changelog.Debian.gz"
gzip -9n <packaging/man/muster.1 >"$stage/usr/share/man/man1/muster.1.gz"
gzip -9n <packaging/man/musterd.8 >"$stage/usr/share/man/man8/musterd.8.gz"
# Tags that are explained in docs/kiosk-install.md ("Lintian, and the package's size"), each with its reason.
install -m 0644 packaging/lintian-overrides "$stage/usr/share/lintian/overrides/muster"
find "$stage/usr/share/doc/muster" -type f -exec chmod 0644 {} +
chmod 0644 "$stage"/usr/share/man/man*/*

# --- control files -------------------------------------------------------------------------------

install -m 0755 packaging/postinst packaging/prerm packaging/postrm "$stage/DEBIAN/"
echo /etc/muster/musterd.toml >"$stage/DEBIAN/conffiles"
chmod 0644 "$stage/DEBIAN/conffiles"

# dpkg-shlibdeps wants a debian/control to read; it only needs the package's stanza.
shlib_dir="$root/.build-deb/shlibdeps"
rm -rf "$shlib_dir"
mkdir -p "$shlib_dir/debian"
printf 'Source: muster\n\nPackage: muster\nArchitecture: any\n' >"$shlib_dir/debian/control"
shlibs=$(cd "$shlib_dir" && dpkg-shlibdeps -O "$stage/usr/bin/musterd" "$stage/usr/bin/muster" 2>"$shlib_dir/warnings") \
    || die "dpkg-shlibdeps failed: $(cat "$shlib_dir/warnings")"
shlibs=${shlibs#shlibs:Depends=}
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no shared libraries"
# adduser for the postinst; avahi-daemon is how kiosks find each other (static_peers work without it,
# but the packaged config turns discovery on).
depends="$shlibs, adduser, avahi-daemon"

installed_size=$(du -s -k --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" packaging/control.in >"$stage/DEBIAN/control"
grep -q '@[A-Z_]*@' "$stage/DEBIAN/control" && die "unfilled placeholder in DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum) \
    >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

# --- build and check -----------------------------------------------------------------------------

rm -f "$output"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$output" >/dev/null
say "built $(basename "$output")"
dpkg-deb --info "$output" | sed -n '/Package:/,$p' | grep -E '^ (Package|Version|Architecture|Depends|Installed-Size):' | sed 's/^ /    /'
dpkg-deb --contents "$output" | awk '$1 !~ /^d/ {printf "    %s %s %10s %s\n", $1, $2, $3, $6}'

if [ "${LINTIAN:-1}" != 0 ]; then
    if command -v lintian >/dev/null 2>&1; then
        say "lintian $(basename "$output")"
        lintian_status=0
        lintian --display-info --pedantic --tag-display-limit 0 "$output" || lintian_status=$?
        # lintian exits 2 on errors (its default --fail-on error), 1 on a failure of lintian itself.
        [ "$lintian_status" -eq 0 ] || die "lintian found errors (exit $lintian_status)"
        say "lintian: no errors (each remaining tag is explained in docs/kiosk-install.md, \"Lintian, and the package's size\")"
    else
        say "lintian not installed: not checked (apt-get install lintian)"
    fi
fi
size=$(stat -c %s "$output")
say "$(basename "$output"): $size bytes ($(numfmt --to=iec-i --suffix=B "$size"))"
