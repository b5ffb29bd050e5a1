#!/bin/sh
# SPDX-License-Identifier: MIT
# Mends the debug-symbols package CPack writes (CMake 3.25): its md5sums name CPack's staging
# paths instead of the package's, and it has no documentation folder. As debhelper does, the
# dbgsym package's doc folder is a symlink to the main package's. Usage: fix_dbgsym.sh FILE.ddeb
set -eu
ddeb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$ddeb" "$work/root"
( cd "$work/root" && find usr -type f | LC_ALL=C sort | xargs md5sum ) > "$work/root/DEBIAN/md5sums"
mkdir -p "$work/root/usr/share/doc"
ln -sfn archivescope "$work/root/usr/share/doc/archivescope-dbgsym"
grep -q '^Section:' "$work/root/DEBIAN/control" && sed -i 's/^Section:.*/Section: debug/' "$work/root/DEBIAN/control"
grep -q '^Auto-Built-Package:' "$work/root/DEBIAN/control" || echo 'Auto-Built-Package: debug-symbols' >> "$work/root/DEBIAN/control"
# xz -1: a quarter of -6's time on ~300 MB of DWARF, 15 % larger.
dpkg-deb --root-owner-group -Zxz -z1 -b "$work/root" "$ddeb.tmp" >/dev/null
mv "$ddeb.tmp" "$ddeb"
