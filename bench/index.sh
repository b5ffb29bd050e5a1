#!/bin/sh
# SPDX-License-Identifier: MIT
# The archive index (issue: big compressed archives read once). On the tarball of real files of
# bench/compressed.sh, gzip -6, zstd (one frame: no restart point), pzstd (frames), xz -T2 (4 MiB
# blocks), lbzip2 (blocks) and a gzip cpio of the same files, every peer in the same run, medians
# of hyperfine runs:
#   first pass:  archivescope-cli ls with the index made (dropped before each run) against --no-index
#   second ls:   from the index, against --no-index and bsdtar -tf
#   cat:         the last member, from the seek point before it, against bsdtar -xOf and --no-index
#   bytes:       what that cat read of the archive (the I/O trace), the largest span, the index's size
# Usage: bench/index.sh [WORKDIR]   (default /tmp/archivescope-bench; shares compressed.sh's files;
#        ARCHIVES="real.tar.gz ..." measures only those (ARCHIVES= none); DEB=some.deb NESTED=path/in/data.tar.xz
#        also times that nested .gz's listing with data.tar.xz's own index against --no-index;
#        ARCHIVES="big.tar.gz" makes and measures the 2 GiB one: real.tar's members four times over, same
#        names (a name's last member is the one read: cat reads the fourth copy's))
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/archivescope-bench}/compressed
cli=$here/build/release/app/archivescope-cli
mkdir -p "$work"
cd "$work"
export ARCHIVESCOPE_INDEX_DIR="$work/index-cache"
rm -rf "$ARCHIVESCOPE_INDEX_DIR"

if [ ! -f real.tar ]; then
    tar -cf real.tar.tmp -C / usr/share/doc usr/share/locale usr/share/man usr/include usr/lib/python3 usr/share/qt6 2>/dev/null || true
    mv real.tar.tmp real.tar
fi
[ -f real.tar.gz ] || gzip -6 -c real.tar > real.tar.gz
[ -f real.tar.zst ] || zstd -q -c real.tar > real.tar.zst
[ -f real.pzstd.tar.zst ] || pzstd -q -p "$(nproc)" -c real.tar > real.pzstd.tar.zst
[ -f real.blocks.tar.xz ] || xz -1 -T"$(nproc)" --block-size=4MiB -c real.tar > real.blocks.tar.xz
[ -f real.tar.bz2 ] || lbzip2 -c real.tar > real.tar.bz2
if [ ! -f real.cpio.gz ]; then
    mkdir -p cpio-tree && tar -xf real.tar -C cpio-tree
    # In the tar's order, so that its last member is the tar's.
    tar -tf real.tar | (cd cpio-tree && bsdtar --format newc -n -cf - -T -) | gzip -6 > real.cpio.gz
    rm -rf cpio-tree
fi
last=$(tar -tf real.tar | grep -v '/$' | tail -1)
case " ${ARCHIVES-} " in
*" big.tar.gz "*)
    if [ ! -f big.tar.gz ]; then
        bsdtar -cf big.tar @real.tar @real.tar @real.tar @real.tar
        gzip -6 -c big.tar > big.tar.gz
    fi
    ;;
esac

json=$(mktemp)
trap 'rm -f "$json"' EXIT
median() { # median COMMAND_PREFIX: of the last hyperfine run, in ms
    python3 - "$json" "$1" <<'PY'
import json, sys, statistics
r = json.load(open(sys.argv[1]))["results"]
x = next(x for x in r if x["command"].startswith(sys.argv[2]))
print("%.1f" % (statistics.median(x["times"]) * 1000))
PY
}
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

echo "### Big compressed archives read once: the index (\`bench/index.sh\`, $(date +%Y-%m-%d), $(nproc) cores, $(uname -r))"
echo
echo "The tarball of real files of compressed.sh ($(( $(stat -c %s real.tar) / 1048576 )) MiB, $(tar -tf real.tar | wc -l) entries); last member \`$last\`."
echo
echo "| archive | first pass, --no-index | first pass, index made | cost | second ls | ls ratio | bsdtar -tf | cat last, index | bsdtar -xOf | --no-index cat | cat ratio vs bsdtar | cat read | largest span | index size |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for archive in ${ARCHIVES-real.tar.gz real.tar.zst real.pzstd.tar.zst real.blocks.tar.xz real.tar.bz2 real.cpio.gz}; do
    size=$(stat -c %s "$archive")
    hyperfine -N --warmup 1 --runs 7 --export-json "$json" "$cli --no-index ls $archive" >/dev/null 2>&1
    plain=$(median "$cli --no-index ls")
    hyperfine --warmup 1 --runs 7 --prepare "$cli index --drop $archive" --export-json "$json" "$cli ls $archive >/dev/null" >/dev/null 2>&1
    made=$(median "$cli ls")
    "$cli" index "$archive" >/dev/null
    hyperfine -N --warmup 2 --runs 15 --export-json "$json" "$cli ls $archive" "bsdtar -tf $archive" >/dev/null 2>&1
    second=$(median "$cli ls")
    bsd=$(median "bsdtar -tf")
    hyperfine -N --warmup 1 --runs 7 --export-json "$json" "$cli cat $archive!/$last" "bsdtar -xOf $archive $last" "$cli --no-index cat $archive!/$last" >/dev/null 2>&1
    cat_index=$(median "$cli cat")
    cat_bsd=$(median "bsdtar -xOf")
    cat_plain=$(median "$cli --no-index cat")
    "$cli" trace -o "$work/cat-trace.jsonl" -- cat "$work/$archive!/$last" >/dev/null 2>&1
    read=$(python3 - "$work/cat-trace.jsonl" "$work/$archive" <<'PY'
import json, sys
print(sum(json.loads(l)["length"] for l in open(sys.argv[1]) if json.loads(l)["file"] == sys.argv[2]))
PY
)
    facts=$("$cli" index --json "$archive")
    span=$(echo "$facts" | python3 -c "import json,sys; print(int(json.load(sys.stdin)['largest_span_bytes']))")
    idx=$(echo "$facts" | python3 -c "import json,sys; print(int(json.load(sys.stdin)['index_bytes']))")
    cost=$(python3 -c "print('%+.1f %%' % (($made / $plain - 1) * 100))")
    echo "| $archive ($((size / 1048576)) MiB) | $plain ms | $made ms | $cost | $second ms | $(ratio "$plain" "$second")x | $bsd ms | $cat_index ms | $cat_bsd ms | $cat_plain ms | $(ratio "$cat_bsd" "$cat_index")x | $((read / 1024)) KiB | $((span / 1024)) KiB | $((idx / 1024)) KiB ($(python3 -c "print('%.2f' % ($idx * 100 / $size))") %) |"
done
if [ -n "${DEB:-}" ] && [ -n "${NESTED:-}" ]; then
    "$cli" ls "$DEB!/data.tar.xz" >/dev/null # its index, keyed by the .deb and its offset
    hyperfine -N --warmup 2 --runs 10 --export-json "$json" "$cli ls $DEB!/data.tar.xz!/$NESTED" "$cli --no-index ls $DEB!/data.tar.xz!/$NESTED" >/dev/null 2>&1
    echo
    echo "Nested: \`ls $(basename "$DEB")!/data.tar.xz!/$NESTED\` $(median "$cli ls") ms with the index, $(median "$cli --no-index ls") ms without (medians of 10)."
fi
