#!/bin/sh
# SPDX-License-Identifier: MIT
# pxar benchmarks: a >= 1 GiB archive made by our writer (four 224 MiB files and 30,000 small
# ones in 60 directories); the sequential decoder and the accessor, sync and async, warm and cold,
# at every buffer size, next to `dd bs=1M` of the same file in the same run; and how many bytes
# one path lookup reads. Usage: bench/pxar.sh [WORKDIR]
exec python3 "$(dirname "$0")/pxar_bench.py" "$@"
