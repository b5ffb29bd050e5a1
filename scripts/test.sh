#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what is needed, builds and runs the whole test suite: the source checks (licence
# lines, layers, formatting), every Qt Test suite (release build), then the core suites and the
# GUI object-lifetime suite again under AddressSanitizer + UBSan (only what they need is built),
# the suites that run threads under ThreadSanitizer, then each libFuzzer target briefly. Quick when nothing
# changed (ccache keeps compilations across fresh clones). Prints each phase's time at the end.
set -eu
cd "$(dirname "$0")/.."

phases=""
started=$(date +%s)
phase_start=$started
phase() { # phase NAME: closes the running phase under NAME
    now=$(date +%s)
    phases="$phases$(printf '  %-24s %5d s' "$1" $((now - phase_start)))
"
    phase_start=$now
}

./scripts/setup.sh
phase "setup"
./scripts/check_spdx.sh
./scripts/check_layers.sh
./scripts/check_format.sh
phase "source checks"

cmake --preset release >/dev/null
cmake --build --preset release
phase "release build"
ctest --preset release -j2
phase "release tests"

cmake --preset asan >/dev/null
cmake --build --preset asan --target core_tests
phase "asan build (core)"
ctest --preset asan -j2
phase "asan tests"

# The suites that run threads of ours, under ThreadSanitizer (tests/tsan.supp says what is not ours).
cmake --preset tsan >/dev/null
cmake --build --preset tsan --target tsan_tests
phase "tsan build (threads)"
ctest --preset tsan -j2
phase "tsan tests"

if [ -f tests/fuzz/CMakeLists.txt ]; then
    ./scripts/fuzz.sh 15
    phase "fuzz build + runs"
fi

printf 'test.sh: phase times\n%s  %-24s %5d s\n' "$phases" "total" $(($(date +%s) - started))
