#!/bin/sh
# SPDX-License-Identifier: MIT
# dd over the buffer sweep, beside our `read` strategy, charted: the first seed of "benchmark
# your own reader" in one line.
# Usage: examples/dd_sweep.sh FILE [SIZES (default 4K:16M)] [OUT.json (default dd-sweep.json)]
# The CLI is $ARCHIVESCOPE_CLI, else archivescope-cli from the build tree or PATH.
set -eu
file=$1
sizes=${2:-4K:16M}
out=${3:-dd-sweep.json}
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${ARCHIVESCOPE_CLI:-$here/build/release/app/archivescope-cli}
[ -x "$cli" ] || cli=archivescope-cli
"$cli" bench "$file" --sizes "$sizes" --runs 3 --strategy read \
    --command 'dd=dd if={file} of=/dev/null bs={buffer}' --json "$out"
"$cli" chart "$out" -o "${out%.json}.png"
echo "wrote $out and ${out%.json}.png"
