#!/bin/sh
# SPDX-License-Identifier: MIT
# `grep` (issue: search and mount) against ugrep -z, timed in the same run, interleaved (each
# round runs every command once, in turn), medians of ROUNDS:
#   a literal (-F) and a regular expression (-E) over real.tar.gz: /usr/include and /usr/share
#   of this machine (~1.1 GB of real files, thousands of .gz inside), with each tool's count
#   of matching lines (they differ where ugrep does not go: the .gz files inside the tarball).
# Usage: bench/grep.sh [WORKDIR] [ROUNDS]   (default /tmp/archivescope-bench, 5)
# Prints a Markdown section for bench/README.md.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
rounds=${2:-5}
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
[ -f real.tar.gz ] || tar cf - -C / usr/include usr/share 2>/dev/null | pigz > real.tar.gz
"$cli" index real.tar.gz >/dev/null # built once, as a user's second search finds it

python3 - "$cli" "$rounds" <<'PY'
import statistics, subprocess, sys, time
cli, rounds = sys.argv[1], int(sys.argv[2])
cases = [("literal", ["-F", "Copyright (C) 2019"]), ("regex", ["-E", "[a-z]+_t [a-z_]+\\(void\\);"])]
def count(out):
    return sum(int(line.rsplit(b":", 1)[1]) for line in out.splitlines() if line)
rows = []
for name, pattern in cases:
    commands = {"archivescope-cli grep -c": [cli, "grep", "-c"] + pattern + ["real.tar.gz"],
                "ugrep -z -c": ["ugrep", "-z", "-c"] + pattern + ["real.tar.gz"]}
    times = {k: [] for k in commands}
    counts = {}
    for _ in range(rounds):
        for label, argv in commands.items():
            start = time.perf_counter()
            done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            times[label].append(time.perf_counter() - start)
            counts[label] = count(done.stdout)
    ours, theirs = statistics.median(times["archivescope-cli grep -c"]), statistics.median(times["ugrep -z -c"])
    rows.append((name, " ".join(pattern), ours, theirs, counts["archivescope-cli grep -c"], counts["ugrep -z -c"]))
print("### grep (bench/grep.sh, medians of %d interleaved rounds)\n" % rounds)
print("| pattern | archivescope-cli grep | ugrep -z | ratio (ugrep / ours) | matching lines (ours, ugrep) |")
print("|---|---|---|---|---|")
for name, pattern, ours, theirs, a, b in rows:
    print("| %s `%s` | %.2f s | %.2f s | %.2f | %d, %d |" % (name, pattern, ours, theirs, theirs / ours, a, b))
PY
