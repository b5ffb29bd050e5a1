#!/bin/sh
# SPDX-License-Identifier: MIT
# Disk-image benchmarks: a 1 GiB virtual disk (30% random, 30% text, 40% holes, 64 KiB clusters)
# as plain, zlib and zstd qcow2, each read by ArchiveScope and by its peers in the same run:
#   - into memory:      archivescope-cli bench (source, 2 MiB)      vs 7zz x -so -tqcow > /dev/null
#   - to a tmpfs file:  archivescope-cli cat IMG > /dev/shm/out     vs qemu-img convert [-m 8] -O raw
#   - buffer sweep:     archivescope-cli bench --sizes 4K:16M       vs qemu-img dd bs=N
# Usage: bench/disk_images.sh [WORKDIR]
exec python3 "$(dirname "$0")/disk_images.py" "$@"
