#!/bin/sh
# SPDX-License-Identifier: MIT
# Remakes tests/fuzz/corpus/udf: a UDF 1.02 image with files and folders by genisoimage -udf, and
# empty UDF 2.01 volumes with 512- and 2048-byte blocks by mkudffs, each as fuzz_udf reads its
# input: the non-empty 512-byte blocks, each after its block number (4 bytes, little-endian).
set -eu
out=$(cd "$(dirname "$0")" && pwd)/corpus/udf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/src/dir/sub"
seq 1 3000 > "$work/src/dir/numbers.txt"
echo small > "$work/src/a.txt"
printf 'x' > "$work/src/dir/sub/one"
genisoimage -quiet -udf -o "$work/files.iso" "$work/src"
truncate -s 2M "$work/hd512.img" "$work/hd2048.img"
mkudffs --media-type=hd --udfrev=2.01 -b 512 --label=seed "$work/hd512.img" >/dev/null
mkudffs --media-type=hd --udfrev=2.01 -b 2048 --label=seed "$work/hd2048.img" >/dev/null
for image in files.iso hd512.img hd2048.img; do
    python3 - "$work/$image" "$out/seed_${image%.*}.bin" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
with open(sys.argv[2], 'wb') as out:
    for block in range(len(data) // 512):
        chunk = data[block * 512:(block + 1) * 512]
        if chunk.strip(b'\0'):
            out.write(struct.pack('<I', block) + chunk)
PY
done
ls -l "$out"
