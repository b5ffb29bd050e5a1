#!/bin/sh
# SPDX-License-Identifier: MIT
# The window never waits (issue: the window never freezes). A tar.gz of 20,000 files, 2,000 of
# them nested .gz members (changelog.Debian.gz, as /usr/share/doc has), opened by the GUI
# (archivescope --measure-open, offscreen) with the filter "changelog" typed once it is listed:
#   max_ui_stall_ms (the longest the event loop did not run)   goal < 100
#   filter_first_match_ms                                       goal < 200
#   nested_opened with the default View setting                 goal 0
# beside bsdtar -tzf of the same file (the peer: how long a listing takes at all), medians of
# RUNS (default 5) runs, printed as a Markdown table.
# Usage: bench/ui_stall.sh [WORKDIR] [RUNS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
runs=${2:-5}
gui=$here/build/release/app/archivescope
mkdir -p "$work"
cd "$work"
tarball=doc-changelogs.tar.gz
if [ ! -f "$tarball" ]; then
    rm -rf doc-tree
    python3 - <<'PY'
import gzip, os
for d in range(2000):
    folder = "doc-tree/usr/share/doc/package%04d" % d
    os.makedirs(folder)
    for i in range(9):
        with open("%s/file%d.txt" % (folder, i), "w") as f:
            f.write(("package %d file %d\n" % (d, i)) * 40)
    with gzip.open(folder + "/changelog.Debian.gz", "wt") as f:
        f.write(("package%04d (1.%d) unstable; urgency=medium\n" % (d, d)) * 30)
PY
    tar -czf "$tarball" -C doc-tree usr
    rm -rf doc-tree
fi

export QT_QPA_PLATFORM=offscreen
results=$(mktemp)
for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    bsdtar -tzf "$tarball" > /dev/null
    end=$(date +%s.%N)
    peer=$(echo "($end - $start) * 1000" | bc)
    line=$("$gui" --measure-open "$tarball" --filter changelog 2>/dev/null | tail -n 1)
    echo "$peer $line" >> "$results"
done
echo "## The window never waits: filter on a big tarball (bench/ui_stall.sh)"
echo
echo "archivescope --measure-open on a tar.gz of 20,000 files, 2,000 of them nested .gz members;"
echo "the filter 'changelog' typed once the tree is listed (default View setting: nested archives"
echo "stay closed). max_ui_stall_ms is the longest gap of a 5 ms heartbeat on the event loop."
echo
python3 - "$results" <<'PY'
import json, statistics, sys
rows = []
for line in open(sys.argv[1]):
    peer, _, text = line.partition(" ")
    rows.append((float(peer), json.loads(text)))
def median(key):
    return statistics.median(r[1][key] for r in rows)
peer = statistics.median(r[0] for r in rows)
print("| figure (median of %d) | value | goal |" % len(rows))
print("|---|---|---|")
print("| entries | %d | |" % median("entries"))
print("| whole tree listed (complete_ms) | %.0f ms (bsdtar -tzf: %.0f ms, ratio %.2f) | |" % (median("complete_ms"), peer, median("complete_ms") / peer))
print("| max_ui_stall_ms | %.0f ms | < 100 ms |" % median("max_ui_stall_ms"))
print("| filter_first_match_ms | %.0f ms | < 200 ms |" % median("filter_first_match_ms"))
print("| filter_complete_ms | %.0f ms | |" % median("filter_complete_ms"))
print("| nested archives opened by the filter | %d | 0 |" % max(r[1]["nested_opened"] for r in rows))
PY
rm -f "$results"
