#!/bin/sh
# SPDX-License-Identifier: MIT
# What recording the I/O trace costs (issue: see every read): the same command plain and under
# `trace`, same run, medians (budget: < 5 % of throughput). Plain runs pay one atomic load per
# read for the recorder being off.
#   cat of a 1 GiB entry (1 MiB reads), listing a 200,201-entry tar, reading a qcow2 disk
# Usage: bench/trace.sh [WORKDIR]   (default /tmp/archivescope-bench)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
. "$here/bench/lib/fixtures.sh"
make_many_tar
make_big1g_tar
json=$(mktemp)
rows=""
for command in "cat big1g.tar!/big.bin" "ls many.tar"; do
    hyperfine -N --warmup 1 --runs 9 --output=pipe --export-json "$json" \
        "$cli --no-sandbox $command" "$cli trace -o $work/trace.jsonl -- $command" >/dev/null 2>&1
    rows="$rows$(python3 - "$json" "$command" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
plain, traced = (statistics.median(x["times"]) for x in r)
print("| `%s` | %.0f ms | %.0f ms | %+.1f %% |" % (sys.argv[2], plain * 1000, traced * 1000, (traced / plain - 1) * 100))
PY
)
"
done
reads=$(wc -l < "$work/trace.jsonl")
rm -f "$json" "$work/trace.jsonl"
cat <<MD
### The I/O trace's cost ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))

\`bench/trace.sh\`: each command in-process without and with \`trace\` (which also writes the
JSON Lines file: $reads reads for the last command), same run, medians. Budget: < 5 %.

| command | plain | traced | cost |
|---|---:|---:|---:|
$rows
MD
