#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every benchmark in bench/ (each times its peers in the same run) and rewrites
# bench/README.md with the results. Build first: ./scripts/run.sh or cmake --build --preset release.
# Usage: bench/run-all.sh [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/archivescope-bench}
out=$here/README.md.tmp
{
    cat "$here/README.head.md"
    for script in "$here"/[a-z]*.sh; do
        case "$(basename "$script")" in run-all.sh) continue ;; esac
        echo
        "$script" "$work"
    done
} > "$out"
mv "$out" "$here/README.md"
echo "wrote $here/README.md"
