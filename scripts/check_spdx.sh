#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a source file lacks its SPDX licence line (run by scripts/test.sh).
# With --fix, adds the line to the files that lack it.
set -eu
cd "$(dirname "$0")/.."
fix=false
[ "${1:-}" = "--fix" ] && fix=true
missing=0
for f in $(git ls-files '*.cpp' '*.h' '*.sh' 'CMakeLists.txt' '*/CMakeLists.txt' '*.cmake' '.ci/run'); do
    [ -f "$f" ] || continue
    if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
        continue
    fi
    if $fix; then
        case "$f" in
            *.cpp|*.h) sed -i '1i // SPDX-License-Identifier: MIT' "$f" ;;
            *)
                if head -n 1 "$f" | grep -q '^#!'; then
                    sed -i '1a # SPDX-License-Identifier: MIT' "$f"
                else
                    sed -i '1i # SPDX-License-Identifier: MIT' "$f"
                fi ;;
        esac
    else
        echo "check_spdx: $f: no 'SPDX-License-Identifier: MIT' line" >&2
        missing=$((missing + 1))
    fi
done
[ "$missing" -eq 0 ] || { echo "check_spdx: $missing file(s) without a licence line (scripts/check_spdx.sh --fix adds them)" >&2; exit 1; }
