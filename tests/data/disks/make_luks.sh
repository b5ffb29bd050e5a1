#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the LUKS fixtures with cryptsetup itself, offline (`cryptsetup reencrypt --encrypt` needs
# no device-mapper): the plaintext is laid out first, then encrypted in place. Needs root and a
# loop device (lvm2 writes only to block devices). The test command uses the committed results.
#   luks-ubuntu.raw.xz: a GPT disk as Ubuntu's installer lays out "encrypt + LVM":
#     p1 ESP (FAT), p2 ext4 /boot, p3 LUKS2 (aes-xts-plain64, 4096-byte sectors, argon2id; slot 0
#     "ubuntu pass", slot 1 "second pass" with pbkdf2) holding the PV of VG "ubuntu-vg", whose
#     LV "ubuntu-lv" is the ext4 root.
#   luks1-cbc.img.xz: an old Debian LUKS1 volume (aes-cbc-essiv:sha256, 256-bit key) holding ext4;
#     password "old debian".
# Truth beside them: luks-ubuntu.files.tsv and luks1-cbc.files.tsv (where, path, size, sha256 of
# what went in), luks-ubuntu.uuid.txt (the LUKS2 UUID). PBKDF costs are kept small so tests stay
# quick: the algorithms are the installers' own.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
loop=""
cleanup() {
    vgremove -f ubuntu-vg >/dev/null 2>&1 || true
    [ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
lvm_quiet() { "$@" --driverloaded n 2>&1 | grep -v -e leaked -e 'Activation disabled' -e 'not zeroed' >&2 || true; }
export LVM_SUPPRESS_FD_WARNINGS=1
kib=1024
mib=1048576

tree() {
    d="$work/tree-$1"
    mkdir -p "$d/etc" "$d/home/ubuntu" "$d/usr/bin"
    printf '/dev/mapper/ubuntu--vg-ubuntu--lv / ext4 defaults 0 1\n' >"$d/etc/fstab"
    printf '%s.example.com\n' "$1" >"$d/etc/hostname"
    seq 1 3000 | sed "s/^/$1 secret line /" >"$d/home/ubuntu/notes.txt"
    head -c 20000 /dev/urandom >"$d/usr/bin/tool"
    : >"$d/etc/empty"
    ln -s ../../etc/hostname "$d/usr/bin/hostname-link"
    echo "$d"
}
files_tsv() { # files_tsv WHERE DIR
    (cd "$2" && find . -type f | sort | while read -r f; do
        printf '%s\t%s\t%s\t%s\n' "$1" "${f#./}" "$(stat -c %s "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
    done)
}

# p3's plaintext: a PV with 256 KiB extents and one LV of 768 KiB, the ext4 root.
root=$(tree root)
mke2fs -q -t ext4 -b 1024 -O ^has_journal -L root -d "$root" -E root_owner=0:0 "$work/root.img" 768K >/dev/null
pv_bytes=$((1 * mib))
truncate -s "$pv_bytes" "$work/pv.img"
loop=$(losetup -f --show "$work/pv.img")
lvm_quiet pvcreate -y --config "devices { pv_min_size = 512 }" --metadatasize 128k --dataalignment 64k "$loop"
lvm_quiet vgcreate --config "devices { pv_min_size = 512 }" -s 256K ubuntu-vg "$loop"
lvm_quiet lvcreate --config "devices { pv_min_size = 512 }" -an -Zn -L 768K -n ubuntu-lv ubuntu-vg
pe_start=$(pvs --config "devices { pv_min_size = 512 }" --driverloaded n --noheadings --units b --nosuffix -o pe_start "$loop" 2>/dev/null | tr -d ' ')
first=$(lvs --config "devices { pv_min_size = 512 }" --driverloaded n --noheadings -o seg_pe_ranges ubuntu-vg/ubuntu-lv 2>/dev/null | tr -d ' ')
first=${first#*:}
first=${first%-*}
dd if="$work/root.img" of="$work/pv.img" oflag=seek_bytes seek=$((pe_start + first * 256 * kib)) conv=notrunc status=none
losetup -d "$loop"
loop=""
cp "$work/pv.img" "$work/p3.img"

# Encrypted in place: the header takes the first half of the reduction, the data moves after it.
printf 'ubuntu pass' >"$work/pass0"
printf 'second pass' >"$work/pass1"
truncate -s $((pv_bytes + 2 * mib)) "$work/p3.img"
cryptsetup reencrypt --encrypt --type luks2 --batch-mode -q --reduce-device-size 2M \
    --luks2-metadata-size 16k --luks2-keyslots-size 512k --sector-size 4096 \
    --cipher aes-xts-plain64 --key-size 512 --pbkdf argon2id --pbkdf-memory 32768 --pbkdf-force-iterations 4 \
    --label ubuntu-crypt --key-file "$work/pass0" "$work/p3.img"
cryptsetup luksAddKey --batch-mode -q --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
    --key-file "$work/pass0" "$work/p3.img" "$work/pass1"
cryptsetup luksUUID "$work/p3.img" >"$here/luks-ubuntu.uuid.txt"
# The data segment is "dynamic" (to the end of the device): what lies past the PV is the
# reduction's spare room, dropped so the fixture stays small. The volume is then the PV exactly.
offset=$(cryptsetup luksDump "$work/p3.img" | awk '/offset:/ {print $2; exit}')
truncate -s $((offset + pv_bytes)) "$work/p3.img"

# The disk: ESP, /boot, the LUKS partition.
esp_bytes=$((2 * mib))
boot=$(tree boot)
mkfs.vfat -C -n ESP "$work/esp.img" $((esp_bytes / kib)) >/dev/null
mkdir -p "$work/esp/EFI/ubuntu"
printf 'search.fs_uuid 1234 root\n' >"$work/esp/EFI/ubuntu/grub.cfg"
mcopy -s -i "$work/esp.img" "$work/esp/EFI" ::/
mke2fs -q -t ext4 -b 1024 -O ^has_journal -L boot -d "$boot" -E root_owner=0:0 "$work/boot.img" 2M >/dev/null
p3_bytes=$(stat -c %s "$work/p3.img")
truncate -s $((1 * mib + esp_bytes + 2 * mib + p3_bytes + 1 * mib)) "$work/disk.raw"
sgdisk -n 1:2048:+2M -t 1:ef00 -c 1:EFI -n 2:0:+2M -t 2:8300 -n 3:0:+$((p3_bytes / kib))K -t 3:8309 "$work/disk.raw" >/dev/null
start() { sgdisk -i "$1" "$work/disk.raw" | awk '/First sector/ {print $3}'; }
dd if="$work/esp.img" of="$work/disk.raw" bs=512 seek="$(start 1)" conv=notrunc status=none
dd if="$work/boot.img" of="$work/disk.raw" bs=512 seek="$(start 2)" conv=notrunc status=none
dd if="$work/p3.img" of="$work/disk.raw" bs=512 seek="$(start 3)" conv=notrunc status=none
{
    files_tsv boot "$boot"
    files_tsv ubuntu-vg/ubuntu-lv "$root"
} >"$here/luks-ubuntu.files.tsv"
xz -9 -c "$work/disk.raw" >"$here/luks-ubuntu.raw.xz"

# LUKS1 as Debian made it before cryptsetup 2: AES-CBC with ESSIV, ext4 straight inside. LUKS1's
# reencryption needs device-mapper, so cryptsetup makes the header and the payload is encrypted in
# user space with the volume key it dumps (Python's cryptography).
old=$(tree old)
mke2fs -q -t ext4 -b 1024 -O ^has_journal -L old -d "$old" -E root_owner=0:0 "$work/old.img" 512K >/dev/null
printf 'old debian' >"$work/pass-old"
truncate -s $((4 * mib)) "$work/luks1.img"
cryptsetup luksFormat --type luks1 --batch-mode -q \
    --cipher aes-cbc-essiv:sha256 --key-size 256 --hash sha256 --pbkdf-force-iterations 1000 \
    --key-file "$work/pass-old" "$work/luks1.img"
cryptsetup luksDump --dump-volume-key --volume-key-file "$work/vk-old" --batch-mode -q --key-file "$work/pass-old" "$work/luks1.img" >/dev/null
python3 - "$work/vk-old" "$work/old.img" "$work/luks1.img" <<'PY'
import hashlib, sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
key = open(sys.argv[1], 'rb').read()
plain = open(sys.argv[2], 'rb').read()
essiv = Cipher(algorithms.AES(hashlib.sha256(key).digest()), modes.ECB()).encryptor()
with open(sys.argv[3], 'r+b') as out:
    # luksFormat filled every key slot's area with random bytes: the seven unused ones are
    # zeroed (nothing reads them) so the fixture compresses.
    header = out.read(592)
    for slot in range(8):
        s = 208 + 48 * slot
        active, material, stripes = header[s:s + 4], int.from_bytes(header[s + 40:s + 44], 'big'), int.from_bytes(header[s + 44:s + 48], 'big')
        if active != b'\x00\xac\x71\xf3':
            out.seek(material * 512)
            out.write(bytes(stripes * len(key)))
    payload = int.from_bytes(header[104:108], 'big') * 512
    out.truncate(payload + len(plain))
    out.seek(payload)
    for sector in range(len(plain) // 512):
        iv = essiv.update(sector.to_bytes(16, 'little'))
        enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        out.write(enc.update(plain[sector * 512:(sector + 1) * 512]) + enc.finalize())
PY
files_tsv old "$old" >"$here/luks1-cbc.files.tsv"
xz -9 -c "$work/luks1.img" >"$here/luks1-cbc.img.xz"
ls -l "$here"/luks*
