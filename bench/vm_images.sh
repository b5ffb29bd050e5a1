#!/bin/sh
# SPDX-License-Identifier: MIT
# The other image formats: the virtual disk of the same 512 MiB content (a GPT disk with an ext4
# partition filled with files) as qcow2, vmdk, vdi, vhd and vhdx, read by `archivescope-cli cat` to
# tmpfs next to `qemu-img convert -O raw` of the same image in the same run; and every file of the
# ext4 partition inside the qcow2 image extracted by us next to `7zz x` of that image (7-Zip enters the same layers).
# Usage: bench/vm_images.sh [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}/vm
cli=$here/build/release/app/archivescope-cli
shm=$(mktemp -d /dev/shm/asc-bench-XXXXXX)
trap 'rm -rf "$shm"' EXIT
mkdir -p "$work"
cd "$work"
if [ ! -f disk.raw ]; then
    mkdir -p tree
    python3 -c "
import os
for i in range(3000):
    d='tree/d%02d' % (i % 30); os.makedirs(d, exist_ok=True)
    open(d + '/f%04d.bin' % i, 'wb').write(os.urandom(4096 + (i * 97) % 60000))
for i in range(3): open('tree/big%d.bin' % i, 'wb').write(os.urandom(64 << 20))
"
    mkfs.ext4 -q -F -d tree part.img 400M >/dev/null
    truncate -s 512M disk.raw
    sgdisk -n 1:2048:+400M -t 1:8300 disk.raw >/dev/null
    dd if=part.img of=disk.raw bs=1M seek=1 conv=notrunc status=none
    rm part.img
fi
for f in qcow2 vmdk vdi vpc vhdx; do [ -f disk.$f ] || qemu-img convert -f raw -O $f disk.raw disk.$f; done
cat disk.* > /dev/null
echo "### Other image formats (\`bench/vm_images.sh\`, $(date -u +%Y-%m-%d))"
echo
echo "512 MiB virtual disk (GPT, ext4 partition with 3000 files and 3 x 64 MiB), medians of 5 runs (hyperfine), output to tmpfs:"
echo
echo "| format | ours: \`cat IMG > tmpfs\` | \`qemu-img convert -O raw\` | ratio |"
echo "|---|---:|---:|---:|"
for f in qcow2 vmdk vdi vpc vhdx; do
    hyperfine -N -w 1 -r 5 --export-json "$shm/h.json" \
        "sh -c '$cli cat disk.$f > $shm/ours.raw'" "qemu-img convert -f $f -O raw disk.$f $shm/qemu.raw" >/dev/null 2>&1
    python3 - "$shm/h.json" "$f" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
ours, qemu = (statistics.median(x["times"]) for x in r)
print("| %s | %.0f ms (%.0f MiB/s) | %.0f ms (%.0f MiB/s) | %.2f |" % (sys.argv[2], ours * 1000, 512 / ours, qemu * 1000, 512 / qemu, qemu / ours))
PY
done
echo
hyperfine -N -w 1 -r 5 --export-json "$shm/x.json" \
    "sh -c 'rm -rf $shm/x && $cli extract disk.qcow2!/p1 -C $shm/x >/dev/null'" \
    "sh -c 'rm -rf $shm/y && 7zz x -y -o$shm/y disk.qcow2 >/dev/null'" >/dev/null 2>&1 || true
python3 - "$shm/x.json" <<'PY'
import json, statistics, sys
try:
    r = json.load(open(sys.argv[1]))["results"]
    ours, seven = (statistics.median(x["times"]) for x in r)
    print("Every file of the ext4 partition inside the qcow2 image: `archivescope-cli extract disk.qcow2!/p1` (files written to tmpfs) %.0f ms; "
          "`7zz x disk.qcow2` (7-Zip enters qcow2, GPT and ext4 too; it also writes the journal as [SYS]/Journal) %.0f ms; ratio %.2f." % (ours * 1000, seven * 1000, seven / ours))
except Exception as e:
    print("7zz comparison unavailable: %s" % e)
PY
