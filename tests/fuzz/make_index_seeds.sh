#!/bin/sh
# SPDX-License-Identifier: MIT
# Remakes the seeds of fuzz_archive_index in the index format of the CLI built here: real index
# files made by `archivescope-cli index` (gzip with seek points, lbzip2 blocks, zstd and lz4
# frames, a gzip cpio) and two payloads (the bytes behind an index file's checksum: a gzip one and
# a multi-block xz one), which the target wraps as an index is written. Run it whenever the index
# format's version changes: seeds of another version stop at the version check.
# Usage: tests/fuzz/make_index_seeds.sh   (needs the release build, bsdtar, lbzip2, zstd, lz4, xz)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=$here/build/release/app/archivescope-cli
out=$here/tests/fuzz/corpus/archive_index
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ARCHIVESCOPE_INDEX_DIR="$work/index"

# Text that compresses as real files do, ~12 MiB: a gzip seek point beyond the first (one every ~8 MiB).
python3 - "$work/src" <<'PY'
import os, random, sys
random.seed(7)
words = [("w%d" % i) * (1 + i % 3) for i in range(3000)]
for d in range(4):
    os.makedirs(os.path.join(sys.argv[1], "d%d" % d), exist_ok=True)
    for f in range(12):
        with open(os.path.join(sys.argv[1], "d%d" % d, "f%02d.txt" % f), "w") as out:
            out.write(" ".join(random.choice(words) for _ in range(45000)))
PY
bsdtar -cf "$work/a.tar" -C "$work/src" .
gzip -6 -c "$work/a.tar" > "$work/a.tar.gz"
lbzip2 -9 -c "$work/a.tar" > "$work/a.tar.bz2"
head -c 4000000 "$work/a.tar" > "$work/part1"
tail -c +4000001 "$work/a.tar" > "$work/part2"
{ zstd -q -c "$work/part1"; zstd -q -c "$work/part2"; } > "$work/a.tar.zst"
{ lz4 -q -c "$work/part1"; lz4 -q -c "$work/part2"; } > "$work/a.tar.lz4"
xz -T2 --block-size=2MiB -1 -c "$work/a.tar" > "$work/a.tar.xz"
(cd "$work/src" && find . | bsdtar -cf - --format newc -T -) | gzip -c > "$work/a.cpio.gz"

seed() { # seed ARCHIVE NAME: its index file, as the CLI stored it
    rm -rf "$ARCHIVESCOPE_INDEX_DIR"
    "$cli" index "$work/$1" > /dev/null
    cp "$ARCHIVESCOPE_INDEX_DIR"/*.idx "$out/$2"
}
payload() { # payload INDEXFILE NAME: what follows its 25-byte header, decompressed
    tail -c +26 "$1" | zstd -q -d -c > "$out/$2"
}
mkdir -p "$out"
rm -f "$out"/index-*
seed a.tar.gz index-file
payload "$out/index-file" index-payload
seed a.tar.bz2 index-file-bzip2
seed a.tar.zst index-file-frames
seed a.tar.lz4 index-file-frames2
seed a.cpio.gz index-file-cpio
seed a.tar.xz index-xz.tmp
payload "$out/index-xz.tmp" index-payload-xz
rm -f "$out/index-xz.tmp"
ls -l "$out"
