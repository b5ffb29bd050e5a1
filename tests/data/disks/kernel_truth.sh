# SPDX-License-Identifier: MIT
# Sourced by make_xfs.sh and make_btrfs.sh: what the kernel shows of a mounted volume, as the tests'
# truth (tests/support/filesystem_truth): one line per entry, sorted by path:
#   type<TAB>path<TAB>size<TAB>sha256 (files) | link target (symlinks) | "-" (folders) | kind (others)

# write_kernel_truth MOUNTPOINT OUTPUT
write_kernel_truth() {
    (
        cd "$1"
        find . -mindepth 1 | LC_ALL=C sort | while read -r p; do
            p=${p#./}
            if [ -L "$p" ]; then
                printf 'symlink\t%s\t0\t%s\n' "$p" "$(readlink "$p")"
            elif [ -f "$p" ]; then
                printf 'file\t%s\t%s\t%s\n' "$p" "$(stat -c %s "$p")" "$(sha256sum <"$p" | cut -d' ' -f1)"
            elif [ -d "$p" ]; then
                printf 'dir\t%s\t0\t-\n' "$p"
            else
                printf 'special\t%s\t0\t%s\n' "$p" "$(stat -c '%F %t:%T' "$p")"
            fi
        done
    ) >"$2"
}
