#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what is needed, builds (release preset) and starts the GUI on FILE, or on the bundled
# sample archive when no file is given. Quick when nothing changed.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release
if [ $# -eq 0 ]; then
    set -- "$PWD/build/release/sample.tar.gz"
fi
exec ./build/release/app/archivescope "$@"
