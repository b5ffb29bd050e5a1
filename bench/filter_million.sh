#!/bin/sh
# SPDX-License-Identifier: MIT
# The filter on a million entries (issue: nothing lost, never frozen). A tar.gz of 1,010,102
# entries (101 folders of 10,000 empty files) is opened by the GUI (archivescope --measure-open,
# offscreen); once listed, "file_09999" is typed a key every 40 ms as a person types, then the
# file is closed. Reported, medians of RUNS (default 3):
#   filter_max_ui_stall_ms   the longest the window did not run while the filter was typed  goal < 100
#   max_ui_stall_ms          the same over the whole run, listing included
#   filter_complete_ms       first key to the last key's tree shown
#   rss_before_open_mib, rss_peak_mib, rss_after_close_mib   goal: after close within 50 MB of before
# beside bsdtar -tzf of the same file (the peer: how long a listing takes at all).
# Usage: bench/filter_million.sh [WORKDIR] [RUNS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
runs=${2:-3}
gui=$here/build/release/app/archivescope
mkdir -p "$work"
cd "$work"
tarball=million.tar.gz
if [ ! -f "$tarball" ]; then
    python3 - "$tarball" <<'PY'
import sys, tarfile
with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
    for d in range(101):
        i = tarfile.TarInfo("tree/dir_%03d" % d); i.type = tarfile.DIRTYPE; i.mode = 0o755; t.addfile(i)
        for f in range(10000):
            i = tarfile.TarInfo("tree/dir_%03d/file_%05d.txt" % (d, f)); i.mtime = 1700000000; t.addfile(i)
PY
fi
export QT_QPA_PLATFORM=offscreen
results=$(mktemp)
for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    bsdtar -tzf "$tarball" > /dev/null
    end=$(date +%s.%N)
    peer=$(echo "($end - $start) * 1000" | bc)
    line=$("$gui" --measure-open "$tarball" --filter file_09999 2>/dev/null | tail -n 1)
    echo "$peer $line" >> "$results"
done
echo "## The filter on a million entries (bench/filter_million.sh)"
echo
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [(float(l.split(" ", 1)[0]), json.loads(l.split(" ", 1)[1])) for l in open(sys.argv[1]) if l.strip()]
med = lambda key: statistics.median(r[1][key] for r in rows)
print("| measure | median of %d runs |" % len(rows))
print("|---|---|")
print("| entries | %d |" % rows[0][1]["entries"])
print("| bsdtar -tzf (peer) | %.0f ms |" % statistics.median(r[0] for r in rows))
for key in ("complete_ms", "filter_complete_ms", "filter_max_ui_stall_ms", "max_ui_stall_ms"):
    print("| %s | %.0f |" % (key, med(key)))
for key in ("rss_before_open_mib", "rss_peak_mib", "rss_after_close_mib"):
    print("| %s | %.1f |" % (key, med(key)))
PY
rm -f "$results"
