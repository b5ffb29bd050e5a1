#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what is needed, builds and runs the whole test suite: every Qt Test suite (release
# build), then the core suites again under AddressSanitizer + UBSan, then each libFuzzer target
# briefly. Quick when nothing changed.
set -eu
cd "$(dirname "$0")/.."
./scripts/setup.sh

cmake --preset release >/dev/null
cmake --build --preset release
ctest --preset release -j2

cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -j2

if [ -f tests/fuzz/CMakeLists.txt ]; then
    ./scripts/fuzz.sh 20
fi
