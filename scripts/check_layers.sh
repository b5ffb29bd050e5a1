#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a core file includes a header of a layer above its own (shared/DESIGN.md):
# io -> vfs -> formats -> open -> bench. Files at core/'s top level count as io. Run by test.sh.
set -eu
cd "$(dirname "$0")/../core"
rank() {
    case $1 in
        io) echo 0 ;; vfs) echo 1 ;; formats) echo 2 ;; open) echo 3 ;; bench) echo 4 ;; *) echo 0 ;;
    esac
}
status=0
for f in $(find . -name '*.cpp' -o -name '*.h' | sed 's|^\./||' | sort); do
    case $f in */*) own=${f%%/*} ;; *) own=io ;; esac
    mine=$(rank "$own")
    for layer in $(sed -n 's,^#include "\(io\|vfs\|formats\|open\|bench\)/.*,\1,p' "$f" | sort -u); do
        if [ "$(rank "$layer")" -gt "$mine" ]; then
            echo "check_layers: core/$f ($own) includes $layer/: a layer above its own" >&2
            status=1
        fi
    done
done
exit $status
