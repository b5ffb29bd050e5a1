// SPDX-License-Identifier: MIT
// The pxar decoder (sync and async inputs) and accessor (walk, lookups, hardlinks, content) over
// arbitrary bytes. Bounded: at most 20000 entries decoded, 1 MiB of content read.

#include "formats/pxar/pxar_accessor.h"
#include "formats/pxar/pxar_decoder.h"
#include "io/memory_source.h"

#include <functional>

using namespace asc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto source = std::make_shared<MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("fuzz.pxar"));
    {
        pxar::Decoder decoder(std::make_unique<pxar::SyncInput>(source, 4096), nullptr);
        char buf[4096];
        for (int i = 0; i < 20000; ++i) {
            auto next = decoder.next();
            if (!next || !*next)
                break;
            while (true) {
                auto got = decoder.readContent(buf);
                if (!got || *got == 0)
                    break;
            }
        }
    }
    auto accessor = pxar::Accessor::open(source, nullptr);
    if (!accessor)
        return 0;
    int budget = 20000;
    std::function<void(const pxar::PxarEntry &, int)> walk = [&](const pxar::PxarEntry &dir, int depth) {
        if (depth > 64)
            return;
        auto children = (*accessor)->list(dir);
        if (!children)
            return;
        for (const pxar::PxarEntry &c : *children) {
            if (--budget < 0)
                return;
            (void)(*accessor)->lookup(c.path);
            if (c.kind == pxar::Kind::Directory)
                walk(c, depth + 1);
            if (c.kind == pxar::Kind::File || c.kind == pxar::Kind::Hardlink) {
                if (auto content = (*accessor)->content(c)) {
                    char buf[4096];
                    (void)(*content)->readAt(0, buf);
                }
            }
        }
    };
    walk((*accessor)->root(), 0);
    return 0;
}
