#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes xfs-kernel.img.xz: an XFS v5 volume (xfsprogs' defaults: crc, ftype, bigtime, finobt,
# reflink, inobtcount) written by the Linux kernel through a mount, so every on-disk form the kernel
# chooses is there: short-form, block, leaf and node/B-tree directories, extent lists and an extent
# B-tree (a fragmented file), a sparse file, preallocated (unwritten) extents, a reflinked copy,
# local and remote symlinks, hard links and device nodes. Needs root and a loop mount; the test
# command uses the committed result. Truth: xfs-kernel.files.tsv (type, path, size, sha256 or
# link target, as the kernel shows them through the mount).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/kernel_truth.sh"
work=$(mktemp -d)
mnt="$work/mnt"
cleanup() {
    umount "$mnt" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$mnt"
truncate -s 300M "$work/xfs.img"
mkfs.xfs -q -f -L kernel-made "$work/xfs.img"
mount -o loop "$work/xfs.img" "$mnt"
cd "$mnt"
mkdir -p small mid big deep/a/b
echo hi >small/f
ln small/f small/hard
mknod small/dev c 8 1
mkfifo small/fifo
i=1
while [ $i -le 40 ]; do echo "$i" >"mid/file_$i"; i=$((i + 1)); done
i=1
while [ $i -le 3000 ]; do : >"big/entry_with_a_long_name_$i"; i=$((i + 1)); done
seq 1 100000 >deep/a/b/numbers
ln -s ../small/f deep/short
ln -s "$(printf 'y%.0s' $(seq 1 300))/t" deep/local-long
ln -s "$(printf 'z%.0s' $(seq 1 1000))/t" deep/remote
truncate -s 50M sparse
echo tail >>sparse
fallocate -l 1M prealloc
printf 'written' | dd of=prealloc bs=1 seek=500000 conv=notrunc status=none
# Every other 4 KiB block: the extents outgrow the inode and go to a B-tree.
python3 -c "
f = open('frag', 'wb')
for i in range(600):
    f.seek(i * 8192)
    f.write((b'%06d fragment ' % i) * 256)
"
cp --reflink=always deep/a/b/numbers reflinked
cd /
sync
write_kernel_truth "$mnt" "$here/xfs-kernel.files.tsv"
umount "$mnt"
for f in frag big sparse; do
    printf '%s: ' "$f"
    xfs_db -r -c "path /$f" -c "print core.format" "$work/xfs.img" | tail -1
done
xz -9 -c "$work/xfs.img" >"$here/xfs-kernel.img.xz"
ls -l "$here"/xfs-kernel.*
