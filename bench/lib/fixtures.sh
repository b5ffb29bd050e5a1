# SPDX-License-Identifier: MIT
# Inputs the archive benchmarks share, made once in the current (work) directory. Sourced by
# bench/archives.sh, bench/sandbox.sh and bench/trace.sh.

# many.tar: 200,201 small files in 201 folders.
make_many_tar() {
    [ -f many.tar ] && return
    python3 - <<'PY'
import io, tarfile
with tarfile.open("many.tar.tmp", "w") as t:
    for i in range(200201):
        data = b"%d\n" % i
        info = tarfile.TarInfo("d%03d/file%06d.txt" % (i // 1000, i))
        info.size = len(data); info.mtime = 1700000000
        t.addfile(info, io.BytesIO(data))
PY
    mv many.tar.tmp many.tar
}

# big1g.tar: one 1 GiB entry of random bytes.
make_big1g_tar() {
    [ -f big1g.tar ] && return
    head -c 1073741824 /dev/urandom > big.bin
    bsdtar -cf big1g.tar big.bin
    rm big.bin
}
