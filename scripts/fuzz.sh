#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (clang, `fuzz` preset) and runs each for SECONDS (default 30), two
# at a time (FUZZ_JOBS), or only the TARGETs named (e.g. `scripts/fuzz.sh 600 archive pxar`). Each starts from its seed
# corpus in tests/fuzz/corpus/<target>/ plus the real files listed below, with its dictionary
# from tests/fuzz/dict/. A crash fails the script and leaves the reproducer in build/fuzz/.
# Each target's runs, executions per second, coverage and peak memory are printed and kept in
# build/fuzz/summary.tsv, or $FUZZ_SUMMARY (what tests/fuzz/README.md records for the
# pre-release run).
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-30}
[ $# -gt 0 ] && shift
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

# Per target: its dictionary, the largest input, and real files beside the seeds.
settings() {
    dict= max_len=262144 extra=
    case $1 in
    archive) dict=archive extra="tests/data/thirdparty" ;;
    compressed_facts | gzip_stream | lz4_stream | lzop_stream | zstd_stream) dict=compression ;;
    # Every bit is a candidate block start: inputs are kept to a few dozen regions.
    gzip_pieces) dict=compression max_len=65536 ;;
    # A block is up to 900k symbols decoded whatever its compressed size: small inputs.
    bzip2_stream) dict=compression max_len=65536 ;;
    lzip_stream) dict=compression extra="tests/data/thirdparty/lzip" ;;
    xz_stream) dict=compression extra="tests/data/thirdparty/xz-utils" ;;
    disk_image | vdi | vhd | vhdx | vmdk) dict=disk_image ;;
    pxar) dict=pxar extra="tests/data/pxar" ;;
    lvm) dict=lvm ;;
    luks) max_len=131072 ;; # a LUKS2 binary header, its JSON and a little data
    btrfs) max_len=524288 ;; # a volume's non-empty blocks
    udf) max_len=262144 ;; # a volume's non-empty 512-byte blocks
    xfs) max_len=524288 ;; # a volume's first allocation group, 1 KiB blocks
    command_template) dict=command_template ;;
    archive_index) dict=archive_index max_len=131072 ;;
    esac
}

# An allocation larger than any machine has (libarchive's RAR5 reader asks for 2^56 bytes on a
# forged window size) fails as malloc does outside ASan, so the caller's handling of it is what
# runs, as in the worker under its memory limit.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

summary=${FUZZ_SUMMARY:-build/fuzz/summary.tsv}
lanes=${FUZZ_JOBS:-2}

# fuzz_one TARGET: runs it, prints its line, appends its summary row to build/fuzz/NAME.row.
fuzz_one() {
    target=$1
    name=$(basename "$target" | sed 's/^fuzz_//')
    settings "$name"
    seeds=tests/fuzz/corpus/$name
    work=build/fuzz/corpus-$name
    log=build/fuzz/$name.log
    mkdir -p "$work" "$seeds"
    options="-max_total_time=$seconds -max_len=$max_len -rss_limit_mb=2048 -timeout=10 -artifact_prefix=build/fuzz/ -print_final_stats=1"
    [ -n "$dict" ] && options="$options -dict=tests/fuzz/dict/$dict.dict"
    failed=0
    # shellcheck disable=SC2086 # options and extra seed folders are word lists
    if ! "$target" $options "$work" "$seeds" $extra > "$log" 2>&1; then
        failed=1
    fi
    final() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corpus=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
    runs=$(final number_of_executed_units)
    speed=$(final average_exec_per_sec)
    rss=$(final peak_rss_mb)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$seconds" "$runs" "$speed" "$cov" "$ft" "$corpus" "$rss" \
        > "build/fuzz/$name.row"
    if [ $failed -eq 1 ]; then
        echo "fuzz_$name FAILED:"
        tail -n 40 "$log"
        return 1
    fi
    echo "fuzzed $name for ${seconds}s: $runs runs, $speed exec/s, cov $cov, ft $ft, corpus $corpus, peak ${rss} MB"
}

selected=""
for target in $(find build/fuzz/tests/fuzz -maxdepth 1 -type f -name 'fuzz_*' -perm -u+x | sort); do
    name=$(basename "$target" | sed 's/^fuzz_//')
    if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then
        continue
    fi
    selected="$selected $target"
    rm -f "build/fuzz/$name.row"
done

# The targets are dealt round-robin to LANES loops running side by side (one per core); each
# target's own run stays single-threaded, as libFuzzer's -jobs would not keep one log per target.
lane=0
pids=""
while [ $lane -lt "$lanes" ]; do
    (
        i=0 status=0
        for target in $selected; do
            if [ $((i % lanes)) -eq $lane ]; then
                fuzz_one "$target" || status=1
            fi
            i=$((i + 1))
        done
        exit $status
    ) &
    pids="$pids $!"
    lane=$((lane + 1))
done
status=0
for pid in $pids; do
    wait "$pid" || status=1
done

printf 'target\tseconds\truns\texec_per_s\tcov\tft\tcorpus\tpeak_rss_mb\n' > "$summary"
for target in $selected; do
    name=$(basename "$target" | sed 's/^fuzz_//')
    cat "build/fuzz/$name.row" >> "$summary" 2>/dev/null || true
done
exit $status
