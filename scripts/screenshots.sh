#!/bin/sh
# SPDX-License-Identifier: MIT
# Remakes docs/screenshots/ with the application's own window (tools/screenshots) under Xvfb:
# a GPT disk image browsed (partitions expanded, a file previewed), the context menu, the Extract
# dialog, a benchmark of six read strategies over a 256 MiB file mid-run and at the end, the
# exported chart, and two runs compared. Run after a release build: ./scripts/screenshots.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$root/build/release" --target archivescope-screenshots
tool=$root/build/release/tools/archivescope-screenshots
# The tool is not beside the worker (app/) nor installed: say where the worker is.
export ARCHIVESCOPE_WORKER="$root/build/release/app/archivescope-worker"
# The traces shown are of a first pass: no archive index read or written.
export ARCHIVESCOPE_NO_INDEX=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 268435456 /dev/urandom > "$work/sample-256MiB.bin"
# A tar.gz of real files (documentation) whose opening the I/O view draws.
tar -czf "$work/docs.tar.gz" -C /usr/share doc 2>/dev/null || true
out=$root/docs/screenshots
mkdir -p "$out"
xvfb-run -a -s '-screen 0 1400x860x24' "$tool" "$out" "$root/tests/data/images/gpt.v3.qcow2" "$work/sample-256MiB.bin" \
    --strategies read,pread,mmap,stdio,uring-qd4,fadvise-seq --trace-archive "$work/docs.tar.gz" \
    --trace-pxar "$root/tests/data/pxar/basic.pxar"
ls "$out"
