#!/bin/sh
# SPDX-License-Identifier: MIT
# Generates archivescope-cli(1) and archivescope(1) from the binaries' own --help (help2man), so
# the pages cannot drift from what the programs say. The CLI page gets a section per command,
# each the command's --help. Usage: make_man_pages.sh CLI GUI VERSION OUTDIR
set -eu
cli=$1 gui=$2 version=$3 out=$4
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen
# Qt warns on stderr without a runtime folder; the pages are made from stdout only.
XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_RUNTIME_DIR
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
include="$out/archivescope-cli.h2m"
{
    echo "[COMMANDS]"
    # The command names are the first words of the "Commands:" block of the overall --help.
    "$cli" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | while read -r command; do
        echo ".SS \"$command\""
        echo ".nf"
        "$cli" "$command" --help | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
        echo ".fi"
    done
    cat <<'SECTIONS'
[EXIT STATUS]
0 success with nothing reported; 1 bad input, a failed operation, or a problem reported on
standard error on the way (a damaged header skipped, an unreadable entry, a member refused at
extraction); 2 usage error.
[SEE ALSO]
.BR archivescope (1),
.BR bsdtar (1),
.BR qemu-img (1)
SECTIONS
} > "$include"
help2man --no-info --version-string="$version" \
    --name="browse archives and disk images, and measure how fast they read (headless)" \
    --section=1 --include="$include" --output="$out/archivescope-cli.1" "$cli"
help2man --no-info --version-string="$version" \
    --name="browse archives and disk images, and measure how fast they read" \
    --section=1 --output="$out/archivescope.1" "$gui"
gzip -9nf "$out/archivescope-cli.1" "$out/archivescope.1"
