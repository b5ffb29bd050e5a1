#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes btrfs-kernel.img.xz: a btrfs volume as Fedora's installer lays it out (mkfs.btrfs defaults:
# DUP metadata, no-holes, free-space tree; subvolumes "root" and "home"; zstd compression), written
# by the Linux kernel through a mount: zstd, lzo and zlib extents (compress-force, and per-folder
# compression properties), inline files, a sparse file, preallocated extents, a reflinked copy, a
# snapshot, hard links, symlinks and a device node. Needs root and a loop mount; the test command
# uses the committed result. Truth: btrfs-kernel.files.tsv (type, path, size, sha256 or target,
# as the kernel shows them through the mount of the top-level subvolume).
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
truncate -s 160M "$work/btrfs.img"
mkfs.btrfs -q -f -L fedora "$work/btrfs.img"
mount -o loop,compress-force=zstd "$work/btrfs.img" "$mnt"
cd "$mnt"
btrfs -q subvolume create root
btrfs -q subvolume create home
mkdir -p root/etc root/usr/bin root/var/log home/user/lzo home/user/zlib root/dev
printf 'fedora\n' >root/etc/hostname
seq 1 200000 | sed 's/^/zstd line /' >root/var/log/messages
btrfs -q property set home/user/lzo compression lzo
btrfs -q property set home/user/zlib compression zlib
seq 1 150000 | sed 's/^/lzo line /' >home/user/lzo/text
seq 1 150000 | sed 's/^/zlib line /' >home/user/zlib/text
head -c 200000 /dev/urandom >home/user/random.bin
printf 'small inline file\n' >home/user/inline.txt
truncate -s 30M home/user/sparse
printf 'end' >>home/user/sparse
fallocate -l 1M home/user/prealloc
ln home/user/inline.txt home/user/hardlink.txt
ln -s ../../etc/hostname root/usr/bin/link
ln -s "$(printf 'k%.0s' $(seq 1 900))" root/usr/bin/longlink
mknod root/dev/sda b 8 0
cp --reflink=always root/var/log/messages root/var/log/messages.reflink
sync
btrfs -q subvolume snapshot -r home home-snapshot
printf 'changed after the snapshot\n' >home/user/inline.txt
cd /
sync
write_kernel_truth "$mnt" "$here/btrfs-kernel.files.tsv"
umount "$mnt"
xz -9 -c "$work/btrfs.img" >"$here/btrfs-kernel.img.xz"
ls -l "$here"/btrfs-kernel.*
