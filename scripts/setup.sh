#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs every Debian 12 package ArchiveScope needs to build, test and benchmark.
# Idempotent: does nothing (quickly) when everything is already installed.
# Works as root or through sudo.
set -eu

PACKAGES="
build-essential cmake ninja-build pkg-config git
qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6svg6 libqt6opengl6-dev libgl-dev
qt6-qpa-plugins libqt6sql6-sqlite
libcryptsetup-dev nettle-dev libpcre2-dev libfuse3-dev fuse3 libarchive-dev liburing-dev zlib1g-dev libdeflate-dev libzstd-dev liblzma-dev libtsk-dev libisal-dev libseccomp-dev libbz2-dev liblz4-dev liblzo2-dev libxxhash-dev
clang clang-format libclang-rt-14-dev
qemu-utils libarchive-tools 7zip xorriso genisoimage mtools dosfstools xxd e2fsprogs fdisk gdisk
xfsprogs btrfs-progs lvm2 thin-provisioning-tools squashfs-tools unar udftools cryptsetup-bin
cpio binutils xz-utils zstd bzip2 lbzip2 lz4 lzip file isal pigz lzop jlha-utils zip unzip
fio hyperfine strace archivemount ugrep
xvfb xauth imagemagick ntfs-3g exfatprogs
desktop-file-utils appstream shared-mime-info dpkg-dev lintian help2man ccache bash-completion man-db
python3
"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "setup.sh: need root or sudo to install:$missing" >&2
    exit 1
fi

echo "setup.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
