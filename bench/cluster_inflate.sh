#!/bin/sh
# SPDX-License-Identifier: MIT
# qcow2's compressed clusters: libdeflate against ISA-L (and zlib) inflating 64 KiB raw-deflate
# clusters of real files (as qemu-img -c writes them), best of 5 rounds each (issue: our own
# decompression layer: "measure ISA-L against libdeflate and keep the faster").
# Usage: bench/cluster_inflate.sh [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/archivescope-bench}
mkdir -p "$work"
c++ -O2 -std=c++17 -o "$work/cluster_inflate" "$here/micro/cluster_inflate.cpp" -ldeflate -lisal -lz
# 128 MiB of real files: documentation and libraries.
if [ ! -f "$work/clusters.bin" ]; then
    { tar -cf - -C /usr/share doc 2>/dev/null; tar -cf - -C /usr/lib/x86_64-linux-gnu . 2>/dev/null; } | head -c 134217728 > "$work/clusters.bin"
fi
rows=$("$work/cluster_inflate" "$work/clusters.bin")
cat <<MD
### qcow2 compressed clusters: which inflater ($(date -u +%Y-%m-%d), $(nproc) cores)

\`bench/cluster_inflate.sh\`: 64 KiB clusters of real files compressed as qemu-img does (raw deflate),
each inflated whole into a cluster-sized buffer; best of 5 rounds; MiB/s of clusters.

| inflater | input | speed |
|---|---:|---:|
$rows
MD
