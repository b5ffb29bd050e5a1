#!/bin/sh
# SPDX-License-Identifier: MIT
# `mount` (issue: search and mount) against archivemount, timed in the same run, interleaved
# (each round runs every command once, in turn), medians of ROUNDS:
#   sequential cat of a 1 GiB member of a tar.gz through the mount, vs archivescope-cli cat of it
#     and vs archivemount (each run mounts afresh: nothing is in the page cache)
#   random 64 KiB reads inside that member (50 offsets; archivemount the first 5 of them)
#   find over the 200,201 entries of many.tar
# Usage: bench/mount.sh [WORKDIR] [ROUNDS]   (default /tmp/archivescope-bench, 5; ~2 GiB free)
# Prints a Markdown section for bench/README.md.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
rounds=${2:-5}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
. "$here/bench/lib/fixtures.sh"
make_many_tar
# big1g.tar.gz: one 1 GiB member of base64 text (compresses to ~75%: the gzip decoder works).
if [ ! -f big1g.tar.gz ]; then
    head -c 805306368 /dev/urandom | base64 -w 76 | head -c 1073741824 > big.txt
    tar czf big1g.tar.gz big.txt
    rm big.txt
fi
mkdir -p mnt

python3 - "$cli" "$rounds" <<'PY'
import os, random, statistics, subprocess, sys, time
cli, rounds = sys.argv[1], int(sys.argv[2])

def mount(kind, archive):
    if kind == "archivescope":
        subprocess.run([cli, "mount", archive, "mnt"], check=True)
    else:
        subprocess.run(["archivemount", "-o", "ro,readonly", archive, "mnt"], check=True)

def unmount():
    subprocess.run(["fusermount3", "-u", "mnt"], check=True)

def timed(fn):
    start = time.perf_counter(); fn(); return time.perf_counter() - start

LIMIT = 60  # seconds: archivemount re-reads a gzip member from its start; it does not finish a 1 GiB one
def cat_mounted(kind):
    def run():
        mount(kind, "big1g.tar.gz")
        try:
            subprocess.run(["timeout", str(LIMIT), "cat", "mnt/big.txt"], stdout=subprocess.DEVNULL)
        finally:
            unmount()
    return run

def cat_cli():
    subprocess.run([cli, "cat", "big1g.tar.gz!/big.txt"], stdout=subprocess.DEVNULL, check=True)

rng = random.Random(7)
offsets = [rng.randrange(0, (1 << 30) - 65536) for _ in range(50)]
def random_reads(kind, count):
    mount(kind, "big1g.tar.gz")
    try:
        with open("mnt/big.txt", "rb", buffering=0) as f:
            f.read(1)  # the member found (the listing, and for us the index) before timing reads
            times = []
            for off in offsets[:count]:
                start = time.perf_counter(); f.seek(off); f.read(65536); times.append(time.perf_counter() - start)
        return statistics.median(times)
    finally:
        unmount()

def find_all(kind):
    def run():
        mount(kind, "many.tar")
        try:
            subprocess.run(["find", "mnt"], stdout=subprocess.DEVNULL, check=True)
        finally:
            unmount()
    return run

cats = {"archivescope-cli cat": [], "cat through archivescope-cli mount": [], "cat through archivemount": []}
finds = {"archivescope-cli mount": [], "archivemount": []}
for _ in range(rounds):
    cats["archivescope-cli cat"].append(timed(cat_cli))
    cats["cat through archivescope-cli mount"].append(timed(cat_mounted("archivescope")))
    cats["cat through archivemount"].append(timed(cat_mounted("archivemount")))
    finds["archivescope-cli mount"].append(timed(find_all("archivescope")))
    finds["archivemount"].append(timed(find_all("archivemount")))
ours = random_reads("archivescope", 50)
theirs = random_reads("archivemount", 5)  # each may decode up to the whole member again

print("### mount (bench/mount.sh, medians of %d interleaved rounds)\n" % rounds)
print("| sequential cat of a 1 GiB tar.gz member | median | MB/s | vs archivescope-cli cat |")
print("|---|---|---|---|")
base = statistics.median(cats["archivescope-cli cat"])
for name, times in cats.items():
    med = statistics.median(times)
    mark = " (stopped at %d s)" % LIMIT if med >= LIMIT else ""
    print("| %s | %.2f s%s | %.0f | %.2f |" % (name, med, mark, 1073.741824 / med, base / med))
print("\n| random 64 KiB reads in that member (50) | median per read |")
print("|---|---|")
print("| archivescope-cli mount (index) | %.1f ms |" % (ours * 1000))
print("| archivemount (5 of them) | %.1f ms |" % (theirs * 1000))
print("\n| mount + `find` over 200,201 entries + unmount | median | vs archivemount |")
print("|---|---|---|")
peer = statistics.median(finds["archivemount"])
for name, times in finds.items():
    med = statistics.median(times)
    print("| %s | %.2f s | %.2f |" % (name, med, peer / med))
PY
