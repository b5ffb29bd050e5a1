#!/bin/sh
# SPDX-License-Identifier: MIT
# Remakes docs/screenshots/ with the application's own window (tools/screenshots) under Xvfb:
# a benchmark of six read strategies over a 256 MiB file, mid-run and at the end, and the chart.
# Run after ./scripts/test.sh (or a release build): ./scripts/screenshots.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tool=$root/build/release/tools/archivescope-screenshots
[ -x "$tool" ] || cmake --build "$root/build/release" --target archivescope-screenshots
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 268435456 /dev/urandom > "$work/sample-256MiB.bin"
out=$root/docs/screenshots
mkdir -p "$out"
xvfb-run -a -s '-screen 0 1600x1000x24' "$tool" "$work/sample-256MiB.bin" \
    --strategies read,pread,mmap,stdio,uring-qd4,fadvise-seq \
    --mid-run "$out/benchmark-mid-run.png" --at-end "$out/benchmark-done.png" --chart "$out/throughput-chart.png"
echo "screenshots: wrote $out/benchmark-mid-run.png, benchmark-done.png, throughput-chart.png"
