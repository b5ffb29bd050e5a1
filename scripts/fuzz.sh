#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (clang, `fuzz` preset) and runs each for SECONDS (default 30),
# starting from the seed corpus in tests/fuzz/corpus/<target>/. A crash fails the script and
# leaves the reproducer in build/fuzz/.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-30}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
status=0
for target in $(find build/fuzz/tests/fuzz -maxdepth 1 -type f -name 'fuzz_*' -perm -u+x | sort); do
    name=$(basename "$target" | sed 's/^fuzz_//')
    seeds=tests/fuzz/corpus/$name
    work=build/fuzz/corpus-$name
    mkdir -p "$work" "$seeds"
    echo "fuzzing $name for ${seconds}s"
    if ! "$target" -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=2048 -timeout=10 \
            -artifact_prefix=build/fuzz/ -print_final_stats=0 "$work" "$seeds" > "build/fuzz/$name.log" 2>&1; then
        tail -n 40 "build/fuzz/$name.log"
        status=1
    else
        grep -E '^Done' "build/fuzz/$name.log" || true
    fi
done
exit $status
