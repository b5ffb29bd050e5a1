#!/bin/sh
# SPDX-License-Identifier: MIT
# The sandboxed worker's cost (issue: parsers in a sandboxed worker). The same CLI commands with
# the worker (the default) and with --no-sandbox, timed in the same run with hyperfine, medians:
#   listing a 200,201-entry tar (budget: <= 1.15x in-process)
#   cat of a 1 GiB entry to a pipe (budget: >= 0.85x in-process throughput)
#   info of a small archive: the worker's start-up (budget: < 50 ms added)
# and the GUI (archivescope --measure-open, offscreen) with its worker per file and without:
#   first 1000 rows of the 200k-entry tar (budget: < 0.5 s), whole tree (<= 1.15x),
#   opening a small archive (budget: < 50 ms added), the idle worker's resident memory (< 20 MB)
# and `bench` itself in the worker and in-process (the same numbers within noise): per point,
# the median MiB/s of each, alternating the two modes so drift hits both alike.
# Usage: bench/sandbox.sh [WORKDIR]   (shares archives.sh's files; default /tmp/archivescope-bench)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
. "$here/bench/lib/fixtures.sh"
make_many_tar
make_big1g_tar
[ -f small.tar.gz ] || { printf 'hello\n' > small.txt; bsdtar -czf small.tar.gz small.txt; rm small.txt; }

json=$(mktemp)
pair() { # pair RUNS SHELL? NAME ARGS: prints a Markdown row with both medians and their ratio
    runs=$1
    shift
    hyperfine $shell_flag --warmup 1 --runs "$runs" --export-json "$json" "$cli $*" "$cli --no-sandbox $*" >/dev/null 2>&1
    python3 - "$json" "$*" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
worker, inproc = (statistics.median(x["times"]) for x in r)
print("| `%s` | %.1f ms | %.1f ms | %.2f | %+.1f ms |" % (sys.argv[2], worker * 1000, inproc * 1000, worker / inproc, (worker - inproc) * 1000))
PY
}
shell_flag=-N
list=$(pair 9 ls many.tar)
start=$(pair 21 info small.tar.gz)
shell_flag=""
cat1g=$(pair 7 "cat big1g.tar!/big.bin | cat > /dev/null")
idle=$(python3 - "$cli" <<'PY'
import subprocess, sys, time, os
# A worker waiting on a full pipe (cat with nobody reading): its resident memory.
p = subprocess.Popen([sys.argv[1], "cat", "big1g.tar!/big.bin"], stdout=subprocess.PIPE)
time.sleep(1.5)
child = open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split()[0]
rss = [l for l in open("/proc/%s/status" % child) if l.startswith("VmRSS")][0].split()[1]
p.kill(); os.kill(int(child), 9); p.wait()
print("| worker waiting on its output (`cat` to a full pipe) | %.1f MiB resident |" % (int(rss) / 1024))
PY
)
rm -f "$json"
benchrows=$(python3 - "$cli" <<'PY'
import json, subprocess, sys, statistics, tempfile, os
cli = sys.argv[1]
cases = [("big1g.tar", ["pread", "uring-qd16", "mmap", "stdio"]), ("big1g.tar!/big.bin", ["source", "uring-qd4"])]
out = tempfile.mkdtemp()
for spec, strategies in cases:
    medians = {True: {}, False: {}}
    for rep in range(3):
        for sandbox in (True, False):
            path = os.path.join(out, "r.json")
            args = [cli] + ([] if sandbox else ["--no-sandbox"]) + ["bench", spec, "--sizes", "64K,1M", "--runs", "3", "--json", path]
            for s in strategies:
                args += ["--strategy", s]
            subprocess.run(args, check=True, capture_output=True)
            for p in json.load(open(path))["points"]:
                medians[sandbox].setdefault((p["strategy"], p["buffer"]), []).append(p["median_mibps"])
    for key in medians[True]:
        w, i = statistics.median(medians[True][key]), statistics.median(medians[False][key])
        print("| `bench %s` %s %d KiB | %.0f MiB/s | %.0f MiB/s | %.2f |" % (spec, key[0], key[1] // 1024, w, i, w / i))
PY
)
gui=$here/build/release/app/archivescope
guirows=$(QT_QPA_PLATFORM=offscreen python3 - "$gui" <<'PY'
import json, subprocess, sys, statistics
gui = sys.argv[1]
def measure(spec, sandbox, runs):
    out = []
    for _ in range(runs):
        args = [gui, "--measure-open", spec] + ([] if sandbox else ["--no-sandbox"])
        out.append(json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]))
    return out
def med(rows, key):
    return statistics.median(r[key] for r in rows)
many_w, many_i = measure("many.tar", True, 5), measure("many.tar", False, 5)
small_w, small_i = measure("small.tar.gz", True, 11), measure("small.tar.gz", False, 11)
for what, key, w, i in (("first 1000 rows of many.tar", "first_1000_rows_ms", many_w, many_i),
                        ("whole tree of many.tar", "complete_ms", many_w, many_i),
                        ("opening small.tar.gz", "complete_ms", small_w, small_i)):
    a, b = med(w, key), med(i, key)
    print("| GUI: %s | %.0f ms | %.0f ms | %.2f | %+.0f ms |" % (what, a, b, a / b if b else 0, a - b))
print("IDLE| GUI worker after listing many.tar (200k entries) | %.1f MiB resident |" % (med(many_w, "worker_rss_bytes") / 2**20))
print("IDLE| GUI worker after opening small.tar.gz | %.1f MiB resident |" % (med(small_w, "worker_rss_bytes") / 2**20))
PY
)
guiidle=$(printf '%s\n' "$guirows" | sed -n 's/^IDLE//p')
guirows=$(printf '%s\n' "$guirows" | grep -v '^IDLE')

cat <<MD
### The sandboxed worker ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))

\`bench/sandbox.sh\`: each command with the worker (default) and with \`--no-sandbox\`, same run,
medians. Budgets: listing <= 1.15x, cat >= 0.85x the throughput (time <= 1.18x), start-up < 50 ms.

| command | worker | in-process | ratio | added |
|---|---:|---:|---:|---:|
$list
$cat1g
$start
$guirows

\`bench\` in the worker against \`--no-sandbox\` (throughput, median of 3 alternating rounds of 3
runs each; ratio = worker / in-process, expected 1.00 within noise):

| point | worker | in-process | ratio |
|---|---:|---:|---:|
$benchrows

| idle worker | |
|---|---:|
$idle
$guiidle
MD
