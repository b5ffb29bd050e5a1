#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes lvm-thin.raw.xz: a disk laid out as the Proxmox VE installer lays it out, by the real tools.
#   p1 the PV of VG "pve" (4 MiB extents):
#      root            8 MiB ext4 (linear)
#      data            thin pool: data_tdata 12 MiB, data_tmeta 4 MiB, 64 KiB chunks
#      vm-100-disk-0   16 MiB thin volume (device 1): a guest's disk, GPT with an ext4 p1
#      snap_vm-100-disk-0_before  its thin snapshot (device 2), taken before etc/motd was removed
# Needs root and a loop device, no device-mapper: lvm2 cannot make thin volumes with activation off,
# so the volume group's metadata is written by vgcfgrestore from text and the pool's metadata by
# thin_restore (thin-provisioning-tools) from XML: both the reference tools' own writers.
# Truth beside it: lvm-thin.volumes.tsv (volume, bytes, sha256), lvm-thin.files.tsv (volume, path,
# size, sha256 of the guest's files as debugfs dumps them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
loop=""
export LVM_SUPPRESS_FD_WARNINGS=1
cleanup() {
    vgremove -f pve >/dev/null 2>&1 || true
    [ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
lvm_quiet() { "$@" --driverloaded n 2>&1 | grep -v -e leaked -e 'Activation disabled' -e 'not zeroed' >&2 || true; }
mib=1048576
extent=$((4 * mib))
chunk=65536

# The guest's disk: GPT, p1 ext4 with files; "before" still has etc/motd.
mkdir -p "$work/guest/etc" "$work/guest/var/log"
printf 'guest-100\n' >"$work/guest/etc/hostname"
printf 'Welcome to guest 100\n' >"$work/guest/etc/motd"
seq 1 40000 | sed 's/^/guest log line /' >"$work/guest/var/log/syslog"
mke2fs -q -t ext4 -L guest -d "$work/guest" -E root_owner=0:0 "$work/guest-fs.img" 14M >/dev/null
truncate -s $((16 * mib)) "$work/before.raw"
sgdisk -n 1:2048:+14M -t 1:8300 "$work/before.raw" >/dev/null
dd if="$work/guest-fs.img" of="$work/before.raw" bs=$mib seek=1 conv=notrunc status=none
cp "$work/guest-fs.img" "$work/after-fs.img"
debugfs -w -R "rm etc/motd" "$work/after-fs.img" >/dev/null 2>&1
cp "$work/before.raw" "$work/after.raw"
dd if="$work/after-fs.img" of="$work/after.raw" bs=$mib seek=1 conv=notrunc status=none

mkdir -p "$work/root/etc"
printf 'pve\n' >"$work/root/etc/hostname"
mke2fs -q -t ext4 -L root -d "$work/root" -E root_owner=0:0 "$work/root.img" 8M >/dev/null

truncate -s $((30 * mib)) "$work/disk.raw"
sgdisk -n 1:2048:0 -t 1:8e00 "$work/disk.raw" >/dev/null
p1_start=$(sgdisk -i 1 "$work/disk.raw" | awk '/First sector/ {print $3}')
p1_end=$(sgdisk -i 1 "$work/disk.raw" | awk '/Last sector/ {print $3}')
truncate -s $(((p1_end - p1_start + 1) * 512)) "$work/pv.img"
loop=$(losetup -f --show "$work/pv.img")
lvm_quiet pvcreate -y "$loop"
lvm_quiet vgcreate -s 4M pve "$loop"
lvm_quiet lvcreate -an -Zn -L 8M -n root pve
lvm_quiet lvcreate -an -Zn -L 12M -n data pve
lvm_quiet lvcreate -an -Zn -L 4M -n meta pve
vgcfgbackup --driverloaded n -f "$work/vg.txt" pve >/dev/null 2>&1

# Plain volumes become the pool's hidden parts; the pool and its thin volumes are added as lvm2
# writes them (lib/format_text/export.c, lib/thin/thin.c).
python3 - "$work/vg.txt" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
def hide(name, new):
    global text
    start = text.index("\t\t%s {" % name)
    end = text.index('status = ["READ", "WRITE", "VISIBLE"]', start)
    text = text[:start] + "\t\t%s {" % new + text[start + len("\t\t%s {" % name):end] + 'status = ["READ", "WRITE"]' + text[end + len('status = ["READ", "WRITE", "VISIBLE"]'):]
hide("data", "data_tdata")
hide("meta", "data_tmeta")
def lv(name, uuid, status, flags, segment):
    return ('\t\t%s {\n\t\t\tid = "%s"\n\t\t\tstatus = %s\n\t\t\tflags = %s\n\t\t\tcreation_time = 1796547163\n'
            '\t\t\tcreation_host = "pve"\n\t\t\tsegment_count = 1\n\n\t\t\tsegment1 {\n%s\t\t\t}\n\t\t}\n\n') % (name, uuid, status, flags, segment)
pool = lv("data", "Pool00-aaaa-bbbb-cccc-dddd-eeee-ffffff", '["READ", "WRITE", "VISIBLE"]', "[]",
          '\t\t\t\tstart_extent = 0\n\t\t\t\textent_count = 3\n\n\t\t\t\ttype = "thin-pool"\n\t\t\t\tmetadata = "data_tmeta"\n'
          '\t\t\t\tpool = "data_tdata"\n\t\t\t\ttransaction_id = 2\n\t\t\t\tchunk_size = 128\n\t\t\t\tdiscards = "passdown"\n\t\t\t\tzero_new_blocks = 1\n')
disk = lv("vm-100-disk-0", "Thin01-aaaa-bbbb-cccc-dddd-eeee-ffffff", '["READ", "WRITE", "VISIBLE"]', "[]",
          '\t\t\t\tstart_extent = 0\n\t\t\t\textent_count = 4\n\n\t\t\t\ttype = "thin"\n\t\t\t\tthin_pool = "data"\n'
          '\t\t\t\ttransaction_id = 0\n\t\t\t\tdevice_id = 1\n')
snap = lv("snap_vm-100-disk-0_before", "Thin02-aaaa-bbbb-cccc-dddd-eeee-ffffff", '["READ", "VISIBLE"]', '["ACTIVATION_SKIP"]',
          '\t\t\t\tstart_extent = 0\n\t\t\t\textent_count = 4\n\n\t\t\t\ttype = "thin"\n\t\t\t\tthin_pool = "data"\n'
          '\t\t\t\ttransaction_id = 1\n\t\t\t\tdevice_id = 2\n\t\t\t\torigin = "vm-100-disk-0"\n')
anchor = text.index("\t\troot {")
text = text[:anchor] + pool + disk + snap + text[anchor:]
open(path, "w").write(text)
PY
vgcfgrestore --driverloaded n --force -f "$work/vg.txt" pve >/dev/null 2>&1
lvs --driverloaded n -a -o lv_name,segtype,lv_size pve 2>/dev/null | grep -q 'vm-100-disk-0 *thin' || { echo "vgcfgrestore did not take the thin volumes" >&2; exit 1; }

# The pool's data: the snapshot's chunks, then the chunks the origin changed afterwards.
python3 - "$work" $chunk <<'PY'
import sys
work, chunk = sys.argv[1], int(sys.argv[2])
before = open(work + "/before.raw", "rb").read()
after = open(work + "/after.raw", "rb").read()
data = bytearray()
snap_map, disk_map = {}, {}
for i in range(len(before) // chunk):
    b = before[i * chunk:(i + 1) * chunk]
    a = after[i * chunk:(i + 1) * chunk]
    if b.strip(b"\0"):
        snap_map[i] = len(data) // chunk
        data += b
    if a == b:
        if i in snap_map:
            disk_map[i] = snap_map[i]
    elif a.strip(b"\0"):
        disk_map[i] = len(data) // chunk
        data += a
assert len(data) <= 12 * 1048576, len(data)
open(work + "/tdata.img", "wb").write(bytes(data) + b"\0" * (12 * 1048576 - len(data)))
def device(dev_id, mapping, time):
    lines = ['  <device dev_id="%d" mapped_blocks="%d" transaction="0" creation_time="%d" snap_time="1">' % (dev_id, len(mapping), time)]
    for virt in sorted(mapping):
        lines.append('    <single_mapping origin_block="%d" data_block="%d" time="0"/>' % (virt, mapping[virt]))
    lines.append("  </device>")
    return "\n".join(lines)
xml = ['<superblock uuid="" time="1" transaction="2" flags="0" version="2" data_block_size="128" nr_data_blocks="192">',
       device(1, disk_map, 0), device(2, snap_map, 1), "</superblock>"]
open(work + "/tmeta.xml", "w").write("\n".join(xml) + "\n")
PY
truncate -s $((4 * mib)) "$work/tmeta.img"
thin_restore -q -i "$work/tmeta.xml" -o "$work/tmeta.img"
thin_check "$work/tmeta.img" >/dev/null

pe_start=$(pvs --driverloaded n --noheadings --units b --nosuffix -o pe_start "$loop" 2>/dev/null | tr -d ' ')
place() {
    lv=$1 img=$2
    lvs --driverloaded n --noheadings -a -o seg_start_pe,seg_pe_ranges -S "lv_name=$lv" pve 2>/dev/null | while read -r le ranges; do
        first=${ranges#*:}
        first=${first%-*}
        last=${ranges##*-}
        dd if="$img" of="$work/pv.img" bs=$extent skip="$le" count=$((last - first + 1)) \
            oflag=seek_bytes seek=$((pe_start + first * extent)) conv=notrunc status=none
    done
}
place root "$work/root.img"
place data_tdata "$work/tdata.img"
place data_tmeta "$work/tmeta.img"
losetup -d "$loop"
loop=""
dd if="$work/pv.img" of="$work/disk.raw" bs=512 seek="$p1_start" conv=notrunc status=none

{
    printf 'root\t%s\t%s\n' "$(stat -c %s "$work/root.img")" "$(sha256sum <"$work/root.img" | cut -d' ' -f1)"
    printf 'vm-100-disk-0\t%s\t%s\n' "$(stat -c %s "$work/after.raw")" "$(sha256sum <"$work/after.raw" | cut -d' ' -f1)"
    printf 'snap_vm-100-disk-0_before\t%s\t%s\n' "$(stat -c %s "$work/before.raw")" "$(sha256sum <"$work/before.raw" | cut -d' ' -f1)"
} >"$here/lvm-thin.volumes.tsv"
{
    for v in before after; do
        mkdir -p "$work/dump-$v"
        debugfs -R "rdump / $work/dump-$v" "$work/$([ $v = before ] && echo guest || echo after)-fs.img" >/dev/null 2>&1
        name=$([ $v = before ] && echo snap_vm-100-disk-0_before || echo vm-100-disk-0)
        (cd "$work/dump-$v" && find . -type f | sort | while read -r f; do
            printf '%s\t%s\t%s\t%s\n' "$name" "${f#./}" "$(stat -c %s "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
        done)
    done
} >"$here/lvm-thin.files.tsv"
xz -9 -c "$work/disk.raw" >"$here/lvm-thin.raw.xz"
ls -l "$here"/lvm-thin.*
