#!/bin/sh
# SPDX-License-Identifier: MIT
# Write amplification on this machine's disk (the DESIGN.md write case): every write strategy,
# files of 1 KiB to 1 MiB, buffer 8 KiB, in place and with atomic replace, fsync'd; device bytes
# from the block device's counter. Usage: bench/writes.sh [WORKDIR] (WORKDIR must not be tmpfs)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}
case "$(stat -f -c %T "$work" 2>/dev/null || echo unknown)" in tmpfs|ramfs) work=$here/build ;; esac
mkdir -p "$work"
cli=$here/build/release/app/archivescope-cli
echo "### Write amplification (\`bench/writes.sh\`, $(date -u +%Y-%m-%d), $(stat -f -c %T "$work") on $(uname -r))"
echo
echo "Device bytes written per file (median of 5 runs) and amplification = device bytes / payload, buffer 8 KiB, fsync after each file."
for mode in "" --atomic; do
    echo
    if [ -z "$mode" ]; then echo "In place:"; else echo "Atomic replace (temporary file, fsync, rename, fsync the directory):"; fi
    echo
    echo '```'
    "$cli" writebench "$work" --file-sizes 1K:1M --buffer 8K --runs 5 $mode 2>/dev/null | sed -n '/^device bytes from/,$p'
    echo '```'
done
