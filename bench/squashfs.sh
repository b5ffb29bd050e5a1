#!/bin/sh
# SPDX-License-Identifier: MIT
# Our squashfs reader against squashfs-tools' own (issue: archives as people have them; goals:
# `cat` of a 1 GiB file >= 1.0x `unsquashfs -cat`, a listing >= 1.0x `unsquashfs -lls`). Images made
# by mksquashfs (gzip, its default, and zstd): one with a 1 GiB file of text, one of /usr/share/doc
# (many small files). Peer and ours interleaved run by run, RUNS runs (default 5), medians, ratio
# = peer time / our time (above 1: we are faster). Output through a pipe to /dev/null, warm cache.
# Usage: bench/squashfs.sh [WORKDIR] [RUNS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
runs=${2:-5}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
if [ ! -f sq-big.gzip.sfs ]; then
    rm -rf sq-big && mkdir sq-big
    python3 -c "
import random, sys
random.seed(3)
words = [b'alpha', b'beta', b'gamma', b'delta', b'kernel', b'volume', b'extent', b'block']
out = open('sq-big/big.txt', 'wb')
line = 0
while out.tell() < 1 << 30:
    out.write(b' '.join(random.choice(words) for _ in range(12)) + b' %d\n' % line)
    line += 1
"
    for c in gzip zstd; do mksquashfs sq-big sq-big.$c.sfs -comp $c -quiet -noappend >/dev/null; done
    rm -rf sq-big
fi
[ -f sq-doc.gzip.sfs ] || mksquashfs /usr/share/doc sq-doc.gzip.sfs -quiet -noappend >/dev/null
cat sq-big.*.sfs sq-doc.gzip.sfs > /dev/null

# Runs "peer" and "ours" alternately and prints one Markdown row.
compare() {
    what=$1 peer=$2 ours=$3
    times=$(mktemp)
    for run in $(seq 1 "$runs"); do
        for who in peer ours; do
            eval "command=\$$who"
            start=$(date +%s.%N)
            sh -c "$command" > /dev/null
            end=$(date +%s.%N)
            echo "$who $(echo "$end - $start" | bc)" >> "$times"
        done
    done
    python3 - "$what" "$times" <<'PY'
import statistics, sys
what, path = sys.argv[1], sys.argv[2]
t = {"peer": [], "ours": []}
for line in open(path):
    who, seconds = line.split()
    t[who].append(float(seconds))
p, o = statistics.median(t["peer"]), statistics.median(t["ours"])
print("| %s | %.2f s | %.2f s | %.2f |" % (what, p, o, p / o))
PY
    rm -f "$times"
}

echo "## squashfs: our reader against unsquashfs (bench/squashfs.sh)"
echo
echo "mksquashfs images (128 KiB blocks); $runs interleaved runs, medians; ratio = unsquashfs / ours."
echo
echo "| what | unsquashfs | archivescope-cli | ratio |"
echo "|---|---|---|---|"
for c in gzip zstd; do
    compare "cat of a 1 GiB file ($c)" "unsquashfs -cat sq-big.$c.sfs big.txt" "$cli cat sq-big.$c.sfs!/big.txt"
done
# What the sandboxed worker costs: the same read in-process.
compare "cat of a 1 GiB file (zstd), ours --no-sandbox" "unsquashfs -cat sq-big.zstd.sfs big.txt" "$cli --no-sandbox cat sq-big.zstd.sfs!/big.txt"
files=$(unsquashfs -lls sq-doc.gzip.sfs | wc -l)
compare "listing of /usr/share/doc ($files entries, gzip)" "unsquashfs -lls sq-doc.gzip.sfs" "$cli ls sq-doc.gzip.sfs"
