#!/bin/sh
# SPDX-License-Identifier: MIT
# Plain-file read sweep: dd and fio (psync, mmap, io_uring qd1 and qd32) against
# `archivescope-cli bench` at the same buffer sizes, 1 GiB file in the page cache, interleaved
# rounds, medians. Usage: bench/read_sweep.sh [WORKDIR] [ROUNDS]
exec python3 "$(dirname "$0")/read_sweep.py" "$@"
