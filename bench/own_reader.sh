#!/bin/sh
# SPDX-License-Identifier: MIT
# What `bench --command` costs the command it measures (issue: benchmark your own reader; budget
# <= 2 %). The same dd read of a 1 GiB file (warm cache) at 4 KiB and 1 MiB buffers, timed by
# hyperfine -N (no shell, no tracing) and by `archivescope-cli bench --command` (ptrace exit stops,
# a subreaper, per-task /proc io), alternating the two tools three times so drift hits both
# alike; medians of the per-run wall times, and their ratio.
# Usage: bench/own_reader.sh [WORKDIR]   (default /tmp/archivescope-bench)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
[ -f own-reader-1g.bin ] || head -c 1G /dev/urandom > own-reader-1g.bin
file=$work/own-reader-1g.bin
cat "$file" > /dev/null

echo "## Your own reader: what measuring it costs (bench/own_reader.sh)"
echo
echo "dd reading a 1 GiB file (warm cache), 21 runs per tool in three alternating rounds; ratio ="
echo "bench --command's median wall time over hyperfine -N's (budget: <= 1.02 within noise)."
echo
echo "| dd buffer | hyperfine -N (median) | bench --command (median) | ratio |" | bench --command (median) | ratio |"
echo "|---|---|---|---|"
for bs in 4096 1048576; do
    hyper=""
    ours=""
    for round in 1 2 3; do
        hyperfine -N --warmup 1 --runs 7 --export-json h.json "dd if=$file of=/dev/null bs=$bs" >/dev/null 2>&1
        hyper="$hyper $(python3 -c 'import json,sys; print(" ".join(str(t) for t in json.load(open("h.json"))["results"][0]["times"]))')"
        "$cli" bench "$file" --command "dd=dd if={file} of=/dev/null bs={buffer}" --sizes "$bs" --runs 7 --warmup 1 --json o.json >/dev/null
        ours="$ours $(python3 -c 'import json; print(" ".join(str(r["seconds"]) for p in json.load(open("o.json"))["points"] for r in p["runs"]))')"
    done
    python3 - "$bs" "$hyper" "$ours" <<'PY'
import statistics, sys
bs, hyper, ours = int(sys.argv[1]), [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
h, o = statistics.median(hyper), statistics.median(ours)
print("| %d KiB | %.1f ms | %.1f ms | %.3f |" % (bs // 1024, h * 1000, o * 1000, o / h))
PY
done
rm -f h.json o.json
