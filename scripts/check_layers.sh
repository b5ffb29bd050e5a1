#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails when a core file includes a header of a layer above its own (shared/DESIGN.md):
# io -> codecs -> sandbox -> vfs -> formats -> open -> bench -> remote. Every core file is in a layer's folder. And the shells
# (app/, ui/, chart/, tools/) reach formats only through the facade in open/: they include no
# formats/ header. Run by test.sh; the build's link check (core/CMakeLists.txt) backs it up.
set -eu
cd "$(dirname "$0")/.."
rank() {
    case $1 in
        io) echo 0 ;; codecs) echo 1 ;; sandbox) echo 2 ;; vfs) echo 3 ;; formats) echo 4 ;; open) echo 5 ;; bench) echo 6 ;; remote) echo 7 ;; *) echo 99 ;;
    esac
}
status=0
for f in $(cd core && find . -name '*.cpp' -o -name '*.h' | sed 's|^\./||' | sort); do
    case $f in */*) own=${f%%/*} ;; *) own=core ;; esac
    mine=$(rank "$own")
    if [ "$mine" = 99 ]; then
        echo "check_layers: core/$f is in no layer's folder (io, codecs, sandbox, vfs, formats, open, bench, remote)" >&2
        status=1
        continue
    fi
    for layer in $(sed -n 's,^#include "\(io\|codecs\|sandbox\|vfs\|formats\|open\|bench\|remote\)/.*,\1,p' "core/$f" | sort -u); do
        if [ "$(rank "$layer")" -gt "$mine" ]; then
            echo "check_layers: core/$f ($own) includes $layer/: a layer above its own" >&2
            status=1
        fi
    done
done
for f in $(find app ui chart tools -name '*.cpp' -o -name '*.h' | sort); do
    if grep -q '^#include "formats/' "$f"; then
        echo "check_layers: $f includes formats/ directly: the shells go through open/ (the facade)" >&2
        status=1
    fi
done
# Long work runs on our pool (io/task_pool.h), never Qt's global one: Qt's painting waits for it.
for f in $(find app ui chart tools core -name '*.cpp' -o -name '*.h' | sort); do
    if grep -n 'QThreadPool::globalInstance\|QtConcurrent::run(' "$f" | grep -v 'QtConcurrent::run(taskPool()' | grep -q .; then
        echo "check_layers: $f uses Qt's global thread pool: run on taskPool() (io/task_pool.h)" >&2
        status=1
    fi
done
exit $status
