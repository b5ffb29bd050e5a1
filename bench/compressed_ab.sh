#!/bin/sh
# SPDX-License-Identifier: MIT
# Two builds of archivescope-cli on bench/compressed.sh's tarballs, in the same run, interleaved
# by hyperfine: whether a change kept the speed ("behaviour and speed unchanged"). The peer of
# each row is the other build (compressed.sh times bsdtar).
# Usage: bench/compressed_ab.sh OLD_CLI [WORKDIR]   (run bench/compressed.sh once first: it makes
# the tarballs). OLD_CLI e.g. from `git worktree add /tmp/old COMMIT` and its release build.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
old=$1
work=${2:-/tmp/archivescope-bench}/compressed
new=$here/build/release/app/archivescope-cli
export ARCHIVESCOPE_NO_INDEX=1 # first passes: the decoders, not the index
cd "$work"
biggest=$(tar -tvf real.tar | sort -k3 -n | tail -1 | awk '{print $NF}')
json=$(mktemp)
trap 'rm -f "$json"' EXIT
row() { # row NAME RUNS ARGS...: old and new with the same arguments
    name=$1 runs=$2
    shift 2
    hyperfine -N --warmup 1 --runs "$runs" --output=pipe --export-json "$json" "$old $*" "$new $*" >/dev/null 2>&1
    python3 - "$json" "$name" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
o, n = (statistics.median(x["times"]) for x in r)
print("| %s | %.0f ms | %.0f ms | %.2f |" % (sys.argv[2], o * 1000, n * 1000, o / n))
PY
}
echo "| row | old | new | old / new |"
echo "|---|---:|---:|---:|"
row "ls tar.gz" 9 ls real.tar.gz
row "ls tar.xz, multi-block" 5 ls real.tar.xz
row "ls tar.xz, one block" 3 ls real-1block.tar.xz
row "ls tar.zst" 9 ls real.tar.zst
row "ls tar.bz2" 3 ls real.tar.bz2
row "ls tar.lz4" 9 ls real.tar.lz4
row "ls tar" 15 ls real.tar
row "cat of the biggest entry, tar.gz" 7 cat "real.tar.gz!/$biggest"
row "cat of the biggest entry, tar.bz2" 3 cat "real.tar.bz2!/$biggest"
