#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a C++ file differs from what clang-format makes of it (.clang-format); run by
# test.sh. `scripts/check_format.sh --fix` formats them in place.
set -eu
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format is missing (scripts/setup.sh installs it)" >&2; exit 1; }
files=$(git ls-files '*.cpp' '*.h' 2>/dev/null || find app chart core tests tools ui installer -name '*.cpp' -o -name '*.h')
if [ "${1:-}" = "--fix" ]; then
    echo "$files" | xargs clang-format -i
    exit 0
fi
bad=0
for f in $files; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "check_format: $f is not formatted (scripts/check_format.sh --fix)" >&2
        bad=$((bad + 1))
    fi
done
[ "$bad" -eq 0 ] || { echo "check_format: $bad file(s) differ from .clang-format" >&2; exit 1; }
