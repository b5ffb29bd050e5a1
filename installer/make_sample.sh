#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the sample archive reproducibly: names sorted, owner 0:0, every mtime at
# SOURCE_DATE_EPOCH (default: the date of the latest debian/changelog entry), and a gzip header
# without a name or timestamp. Usage: make_sample.sh RESOURCES_DIR OUT.tar.gz
set -eu
resources=$1 out=$2
epoch=${SOURCE_DATE_EPOCH:-1796083200}
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --mode='u+rw,go+r-w,a+X' \
    --format=gnu -C "$resources" -cf - sample | gzip -9n > "$out.tmp"
mv "$out.tmp" "$out"
