#!/bin/sh
# SPDX-License-Identifier: MIT
# Archive benchmarks (issue: archives). Peers timed in the same run with hyperfine:
#   listing a 200,201-entry tar of small files: bsdtar -tf, GNU tar -tf, 7zz l vs archivescope-cli ls
#   cat of a 1 GiB single-entry tar:             bsdtar -xOf vs archivescope-cli cat
#   the GUI: time to the first 1000 rows, to the whole tree, and memory per entry (--measure-open)
# Usage: bench/archives.sh [WORKDIR]   (default /tmp/archivescope-bench; needs ~1.5 GiB)
# Prints a Markdown section; bench/run-all.sh pastes it into bench/README.md.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
cli=$here/build/release/app/archivescope-cli
gui=$here/build/release/app/archivescope
mkdir -p "$work"
cd "$work"

. "$here/bench/lib/fixtures.sh"
make_many_tar
make_big1g_tar

json=$(mktemp)
hyperfine -N --warmup 2 --runs 15 --export-json "$json" \
    "bsdtar -tf many.tar" "tar -tf many.tar" "7zz l many.tar" \
    "$cli ls many.tar" "$cli ls --json many.tar" >/dev/null 2>&1
list=$(python3 - "$json" "$cli" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
base = next(x for x in r if x["command"].startswith("bsdtar"))
for x in r:
    med = statistics.median(x["times"])
    print("| `%s` | %.0f ms | %.0f k entries/s | %.2f |" % (x["command"].replace(sys.argv[2], "archivescope-cli"), med * 1000, 200201 / med / 1000,
          statistics.median(base["times"]) / med))
PY
)
bsdtar_ms=$(python3 -c 'import json,sys,statistics; print(round(statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"])*1000))' "$json")
hyperfine -N --warmup 1 --runs 7 --output=pipe --export-json "$json" \
    "bsdtar -xOf big1g.tar" "$cli cat big1g.tar!/big.bin" >/dev/null 2>&1
cat1g=$(python3 - "$json" "$cli" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
base = statistics.median(r[0]["times"])
for x in r:
    med = statistics.median(x["times"])
    print("| `%s` | %.0f ms | %.2f GiB/s | %.2f |" % (x["command"].replace(sys.argv[2], "archivescope-cli"), med * 1000, 1 / med, base / med))
PY
)
rm -f "$json"
guiruns=""
for i in 1 2 3 4 5; do
    guiruns="$guiruns$(QT_QPA_PLATFORM=offscreen "$gui" --measure-open many.tar 2>/dev/null)
"
done
guitable=$(printf '%s' "$guiruns" | python3 -c '
import json, sys, statistics
runs = [json.loads(l) for l in sys.stdin if l.strip()]
first = statistics.median(r["first_1000_rows_ms"] for r in runs)
whole = statistics.median(r["complete_ms"] for r in runs)
mem = statistics.median(r["bytes_per_entry_beyond_names"] for r in runs)
b = float(sys.argv[1])
print("| first 1000 rows visible | %.0f ms | goal < 500 ms |" % first)
print("| whole tree listed | %.0f ms (%.2fx `bsdtar -tf` = %.0f ms) | goal < 1.5x |" % (whole, whole / b, b))
print("| resident memory beyond name strings | %.0f bytes/entry | goal < 200 |" % mem)
' "$bsdtar_ms")

cat <<MD
### Archives ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))

Listing a 200,201-entry tar of small files (medians of 15 runs, \`hyperfine -N\`; ratio = bsdtar time / this time):

| command | median | rate | vs bsdtar |
|---|---:|---:|---:|
$list

\`cat\` of the single 1 GiB entry of an uncompressed tar, to a pipe (medians of 7 runs):

| command | median | throughput | vs bsdtar |
|---|---:|---:|---:|
$cat1g

The GUI opening the 200,201-entry tar (\`archivescope --measure-open many.tar\`, offscreen, median of 5):

| measure | result | goal |
|---|---:|---|
$guitable
MD
