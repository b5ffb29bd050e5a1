// SPDX-License-Identifier: MIT
// qcow2's compressed clusters are raw deflate streams of one cluster each (64 KiB by default),
// inflated whole into a buffer of the cluster size. Which inflater is faster at that shape:
// libdeflate (what qcow2_image.cpp uses) or ISA-L's stateless inflate? Built and run by
// bench/cluster_inflate.sh; prints one Markdown row per inflater.
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), {});
    const size_t cluster = 65536;
    std::vector<std::vector<unsigned char>> packed;
    for (size_t at = 0; at + cluster <= data.size(); at += cluster) {
        z_stream z{};
        deflateInit2(&z, 6, Z_DEFLATED, -12, 9, Z_DEFAULT_STRATEGY); // as qemu-img: raw, 4 KiB window
        std::vector<unsigned char> out(cluster * 2);
        z.next_in = data.data() + at;
        z.avail_in = uInt(cluster);
        z.next_out = out.data();
        z.avail_out = uInt(out.size());
        deflate(&z, Z_FINISH);
        out.resize(z.total_out);
        deflateEnd(&z);
        packed.push_back(std::move(out));
    }
    std::vector<unsigned char> out(cluster);
    auto run = [&](const char *name, auto inflateOne) {
        double best = 1e9;
        for (int round = 0; round < 5; ++round) {
            const auto start = std::chrono::steady_clock::now();
            for (const auto &p : packed)
                if (!inflateOne(p))
                    std::fprintf(stderr, "%s failed\n", name);
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::printf("| %s | %zu clusters | %.0f MiB/s |\n", name, packed.size(), double(packed.size() * cluster) / best / 1048576.0);
    };
    libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    run("libdeflate", [&](const std::vector<unsigned char> &p) {
        size_t produced = 0;
        return libdeflate_deflate_decompress(d, p.data(), p.size(), out.data(), out.size(), &produced) == LIBDEFLATE_SUCCESS && produced == cluster;
    });
    inflate_state state;
    run("ISA-L (isal_inflate_stateless)", [&](const std::vector<unsigned char> &p) {
        isal_inflate_init(&state);
        state.next_in = const_cast<unsigned char *>(p.data());
        state.avail_in = uint32_t(p.size());
        state.next_out = out.data();
        state.avail_out = uint32_t(out.size());
        return isal_inflate_stateless(&state) == ISAL_DECOMP_OK && state.total_out == cluster;
    });
    run("zlib", [&](const std::vector<unsigned char> &p) {
        z_stream z{};
        inflateInit2(&z, -15);
        z.next_in = const_cast<unsigned char *>(p.data());
        z.avail_in = uInt(p.size());
        z.next_out = out.data();
        z.avail_out = uInt(out.size());
        const int rc = inflate(&z, Z_FINISH);
        inflateEnd(&z);
        return rc == Z_STREAM_END;
    });
    libdeflate_free_decompressor(d);
    return 0;
}
