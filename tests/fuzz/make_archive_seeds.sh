#!/bin/sh
# SPDX-License-Identifier: MIT
# Remakes the archive seeds in tests/fuzz/corpus/archive/: one small archive of every format and
# filter libarchive reads that a tool here writes (bsdtar, GNU tar, 7zz, lha, zip), each holding
# a text file, a folder, a symlink, a hardlink and a long name. The third-party archives of
# tests/data/thirdparty/ are added as seeds by scripts/fuzz.sh, not copied.
set -eu
out=$(cd "$(dirname "$0")" && pwd)/corpus/archive
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir -p src/dir sparse
printf 'hello world\n' > src/a.txt
seq 1 300 > src/dir/b.txt
ln -s a.txt src/link
ln src/a.txt src/hard
truncate -s 1M sparse/holes
printf 'data' | dd of=sparse/holes bs=1 seek=500000 conv=notrunc 2>/dev/null

for format in ustar pax gnutar v7 cpio newc odc bin shar zip 7zip ar arbsd xar mtree; do
    bsdtar --format "$format" -cf "$out/seed.$format" -C src . 2>/dev/null || true
done
bsdtar --format warc -cf "$out/seed.warc" -C src a.txt dir/b.txt
bsdtar --format iso9660 --options '!pad,rockridge,joliet' -cf "$out/seed.iso" -C src .
for filter in gzip bzip2 xz lzma lzip zstd lz4 lzop compress uuencode; do
    bsdtar --format ustar "--$filter" -cf "$out/seed.tar.$filter" -C src a.txt dir
done
tar --sparse --format=gnu -cf "$out/seed-sparse-gnu.tar" -C sparse holes
tar --sparse --format=posix -cf "$out/seed-sparse-pax.tar" -C sparse holes
long=$(printf 'n%.0s' $(seq 1 150))
printf 'long\n' > "src/$long"
bsdtar --format pax -cf "$out/seed-longname.pax" -C src .
tar --format=gnu -cf "$out/seed-longname.gnutar" -C src .
rm "src/$long"
7zz a -bd -m0=PPMd "$out/seed-ppmd.7z" src > /dev/null
7zz a -bd -m0=BZip2 "$out/seed-bzip2.7z" src > /dev/null
7zz a -bd -mf=BCJ -m0=LZMA "$out/seed-bcj.7z" src > /dev/null
7zz a -bd -mhe=on -psecret "$out/seed-encrypted.7z" src > /dev/null
7zz a -bd -tzip -mm=Deflate64 "$out/seed-deflate64.zip" src > /dev/null
7zz a -bd -tzip -mm=BZip2 "$out/seed-bzip2.zip" src > /dev/null
7zz a -bd -tzip -mm=LZMA "$out/seed-lzma.zip" src > /dev/null
7zz a -bd -tzip -psecret "$out/seed-zipcrypto.zip" src > /dev/null
7zz a -bd -tzip -mem=AES256 -psecret "$out/seed-aes.zip" src > /dev/null
(cd src && lha aq "$out/seed.lzh" a.txt dir/b.txt)
