#!/bin/sh
# SPDX-License-Identifier: MIT
# The sandboxed worker's cost (issue: parsers in a sandboxed worker). The same CLI commands with
# the worker (the default) and with --no-sandbox, timed in the same run with hyperfine, medians:
#   listing a 200,201-entry tar (budget: <= 1.15x in-process)
#   cat of a 1 GiB entry to a pipe (budget: >= 0.85x in-process throughput)
#   info of a small archive: the worker's start-up (budget: < 50 ms added)
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

cat <<MD
### The sandboxed worker ($(date -u +%Y-%m-%d), $(nproc) cores, $(uname -r))

\`bench/sandbox.sh\`: each command with the worker (default) and with \`--no-sandbox\`, same run,
medians. Budgets: listing <= 1.15x, cat >= 0.85x the throughput (time <= 1.18x), start-up < 50 ms.

| command | worker | in-process | ratio | added |
|---|---:|---:|---:|---:|
$list
$cat1g
$start

| idle worker | |
|---|---:|
$idle
MD
