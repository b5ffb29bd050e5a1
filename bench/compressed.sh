#!/bin/sh
# SPDX-License-Identifier: MIT
# Compressed archives (issue: our own decompression layer). One tarball of real files from /usr
# (docs, locales, man pages, headers, Python and Qt files), and its gzip, xz (multi-block:
# xz -T0; single-block: xz -T1) and zstd variants; every peer timed in the same run, medians:
#   ls:       bsdtar -tf, GNU tar -tf (the uncompressed tar), igzip -dc | tar -t
#   cat:      the biggest entry, bsdtar -xOf vs archivescope-cli cat
#   extract:  to tmpfs, bsdtar -xf and igzip -dc | tar -x vs archivescope-cli extract
#   the GUI:  whole tree of the tar.gz (--measure-open) against the CLI's ls
# Usage: bench/compressed.sh [WORKDIR]   (default /tmp/archivescope-bench; needs ~2 GiB, and a
# few minutes the first time to compress)
set -eu
# Every run here is a first pass (the decoders against their peers): no archive index is read or
# kept (bench/index.sh measures the index).
export ARCHIVESCOPE_NO_INDEX=1
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}/compressed
cli=$here/build/release/app/archivescope-cli
gui=$here/build/release/app/archivescope
mkdir -p "$work"
cd "$work"

if [ ! -f real.tar ]; then
    tar -cf real.tar.tmp -C / usr/share/doc usr/share/locale usr/share/man usr/include usr/lib/python3 usr/share/qt6 2>/dev/null || true
    mv real.tar.tmp real.tar
fi
[ -f real.tar.gz ] || gzip -6 -c real.tar > real.tar.gz
[ -f real.tar.xz ] || xz -6 -T0 -c real.tar > real.tar.xz
[ -f real-1block.tar.xz ] || xz -3 -T1 -c real.tar > real-1block.tar.xz
[ -f real.tar.zst ] || zstd -q -3 -c real.tar > real.tar.zst
# lbzip2 writes what bzip2 -9 writes (one stream of 900k blocks), in a third of the time.
[ -f real.tar.bz2 ] || lbzip2 -9 -c real.tar > real.tar.bz2
[ -f real.tar.lz4 ] || lz4 -q -c real.tar > real.tar.lz4
entries=$(tar -tf real.tar | wc -l)
size=$(stat -c %s real.tar)
biggest=$(tar -tvf real.tar | sort -k3 -n | tail -1 | awk '{print $NF}')

json=$(mktemp)
table() { # table BASE_PREFIX: a Markdown row per command of the last hyperfine run, ratio to the first command starting with BASE_PREFIX
    python3 - "$json" "$cli" "$1" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
base = statistics.median(next(x for x in r if x["command"].startswith(sys.argv[3]))["times"])
for x in r:
    med = statistics.median(x["times"])
    print("| `%s` | %.0f ms | %.2f |" % (x["command"].replace(sys.argv[2], "archivescope-cli"), med * 1000, base / med))
PY
}
run() { # run RUNS COMMAND...
    runs=$1
    shift
    hyperfine -N --warmup 1 --runs "$runs" --export-json "$json" "$@" >/dev/null 2>&1
}

run 7 "bsdtar -tf real.tar.gz" "$cli ls real.tar.gz"
ls_gz=$(table bsdtar)
hyperfine --warmup 1 --runs 7 --export-json "$json" "igzip -dc real.tar.gz | tar -t" "$cli ls real.tar.gz" >/dev/null 2>&1
ls_gz_pipe=$(table igzip)
run 5 "bsdtar -tf real.tar.xz" "$cli ls real.tar.xz"
ls_xz=$(table bsdtar)
run 3 "bsdtar -tf real-1block.tar.xz" "$cli ls real-1block.tar.xz"
ls_xz1=$(table bsdtar)
run 7 "bsdtar -tf real.tar.zst" "$cli ls real.tar.zst"
ls_zst=$(table bsdtar)
hyperfine --warmup 1 --runs 3 --export-json "$json" "bsdtar -tf real.tar.bz2" "lbzip2 -dc real.tar.bz2 | tar -t" "$cli ls real.tar.bz2" >/dev/null 2>&1
ls_bz2=$(table bsdtar)
hyperfine --warmup 1 --runs 7 --export-json "$json" "bsdtar -tf real.tar.lz4" "lz4 -dc real.tar.lz4 | tar -t" "$cli ls real.tar.lz4" >/dev/null 2>&1
ls_lz4=$(table bsdtar)
run 9 "tar -tf real.tar" "bsdtar -tf real.tar" "$cli ls real.tar"
ls_tar=$(table "tar ")
hyperfine -N --warmup 1 --runs 7 --output=pipe --export-json "$json" "bsdtar -xOf real.tar.gz $biggest" "$cli cat real.tar.gz!/$biggest" >/dev/null 2>&1
cat_gz=$(table bsdtar)
out=/dev/shm/archivescope-extract
hyperfine --warmup 1 --runs 5 --export-json "$json" \
    --prepare "rm -rf $out && mkdir -p $out" \
    "bsdtar -xf real.tar.gz -C $out" "igzip -dc real.tar.gz | tar -x -C $out" "$cli extract real.tar.gz -C $out" \
    "$cli --no-sandbox extract real.tar.gz -C $out" >/dev/null 2>&1
extract_gz=$(table bsdtar)
rm -rf "$out"
cli_ls_ms=$(hyperfine -N --warmup 1 --runs 5 --export-json "$json" "$cli ls real.tar.gz" >/dev/null 2>&1 && python3 -c 'import json,sys,statistics; print(round(statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"])*1000))' "$json")
guiruns=""
for i in 1 2 3 4 5; do
    guiruns="$guiruns$(QT_QPA_PLATFORM=offscreen "$gui" --measure-open real.tar.gz 2>/dev/null)
"
done
gui=$(printf '%s' "$guiruns" | python3 -c '
import json, sys, statistics
runs = [json.loads(l) for l in sys.stdin if l.strip()]
whole = statistics.median(r["complete_ms"] for r in runs)
c = float(sys.argv[1])
print("| GUI whole tree of real.tar.gz | %.0f ms | %.2fx the CLI ls (%.0f ms); goal <= 1.1x |" % (whole, whole / c, c))
' "$cli_ls_ms")
rm -f "$json"

# The gzip decoders alone: ISA-L on one core, ISA-L on every core with the member cut into pieces
# (the default from 4 cores on), libarchive's own.
decoders=$("$cli" bench real.tar.gz --strategy inflate-isal --strategy inflate-isal-pieces --strategy libarchive-filter --sizes 1M --runs 5 2>/dev/null |
    grep -E '^(inflate-isal|inflate-isal-pieces|libarchive-filter) ' | sed 's/^/    /')

cat <<MD
### Compressed archives ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))

\`bench/compressed.sh\`: a tarball of real files from /usr ($entries entries, $((size / 1048576)) MiB),
gzip -6, xz -6 -T0 (multi-block) and xz -3 -T1 (one block), zstd -3, bzip2 -9 (made by lbzip2:
the same format) and lz4; page cache warm; medians.
The ratio column is the peer's time over each command's (above 1: faster than the peer).
Our filters: gzip with ISA-L (igzip), xz with liblzma's multi-threaded decoder, zstd with
libzstd, bzip2 with libbz2 one block per core, lz4 with liblz4's frame decoder, each decoding on
a second thread ahead of libarchive's parsing.

Listing (\`ls\`) a tar.gz against bsdtar (goal >= 2.0) and against \`igzip -dc | tar -t\` (goal >= 1.0):

| command | median | vs first |
|---|---:|---:|
$ls_gz

| command | median | vs first |
|---|---:|---:|
$ls_gz_pipe

tar.xz, multi-block (goal >= 1.7 on 2 cores) and single-block (goal >= 1.0):

| command | median | vs bsdtar |
|---|---:|---:|
$ls_xz

| command | median | vs bsdtar |
|---|---:|---:|
$ls_xz1

tar.zst (goal >= 1.1):

| command | median | vs bsdtar |
|---|---:|---:|
$ls_zst

tar.bz2 against bsdtar and the parallel \`lbzip2 -dc | tar -t\` (no goal set; bzip2's blocks
decode on every core):

| command | median | vs bsdtar |
|---|---:|---:|
$ls_bz2

tar.lz4 against bsdtar and \`lz4 -dc | tar -t\` (no goal set):

| command | median | vs bsdtar |
|---|---:|---:|
$ls_lz4

The uncompressed tar against GNU tar (goal >= 1.0):

| command | median | vs GNU tar |
|---|---:|---:|
$ls_tar

\`cat\` of the biggest entry ($biggest) of the tar.gz:

| command | median | vs bsdtar |
|---|---:|---:|
$cat_gz

Extracting the tar.gz to tmpfs:

| command | median | vs bsdtar |
|---|---:|---:|
$extract_gz

| GUI | median | |
|---|---:|---|
$gui

The gzip decoders alone (\`archivescope-cli bench real.tar.gz --strategy inflate-isal --strategy
inflate-isal-pieces --strategy libarchive-filter --sizes 1M --runs 5\`), decompressed MiB/s:

$decoders

Where the goals are missed, and why: listing the tar.gz is bounded by one core inflating
(\`inflate-isal\` above runs at about the speed of \`igzip -dc\` alone, and so does \`ls\`).
Inflating one member on several cores is built (\`codecs/gzip_pieces\`: blocks found by their
header, each piece's start decoded with markers for the unknown window, then ISA-L), but on
2 cores it costs more than it gains: finding blocks, the marker decoding, the copies and the
memory in flight cost CPU, and the parse needs the same two cores. With
\`GzipPieces::kMinCores\` set to 2 in \`core/codecs/gzip_pieces.h\` and rebuilt, \`/usr/bin/time archivescope-cli ls real.tar.gz\` took 0.73-0.89 s and 1.2-1.3 CPU-seconds, against
0.70-0.80 s and 0.8-0.9 CPU-seconds on one thread. The decoder alone gains about 1.1x here (the
table above). So it is on from 4 cores, where the same work spreads over twice the cores.
\`cat\` of an entry decodes the stream once (the lookup, which reads to the end for the last
member of the name, keeps the entry's content), so it has the same bound, and so has extraction. The multi-block xz listing scales with the cores
liblzma's decoder gets (1.6-1.8x on this shared 2-core machine). zstd and the single-block xz
are bound by their single-threaded decoders on both sides (no gain possible beyond overlapping
the parse, ~5 %). bzip2's blocks decode on both cores with libbz2 (the decoders alone, about
1.9x: \`head -c 150000000 real.tar | lbzip2 -9 > part.tar.bz2\`, then \`archivescope-cli bench
part.tar.bz2 --strategy bzip2-mt --strategy bzip2-1thread --strategy libarchive-filter --sizes
1M\`); lbzip2 has a faster decoder of its own. The uncompressed tar: libarchive's per-header work plus our start-up (GNU tar's own time
varies between machines: 128 ms on 2026-12-02's, 178-234 ms on 2026-12-05's). The GUI's whole tree is bound by the tree model's inserts on the
UI thread. Extraction parses in a worker and the content crosses a socket in batched frames:
compare the \`extract\` and \`--no-sandbox extract\` rows.
MD
