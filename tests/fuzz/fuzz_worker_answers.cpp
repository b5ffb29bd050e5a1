// SPDX-License-Identifier: MIT
// What the GUI reads from a worker process (remote/wire) on arbitrary bytes: a worker a
// hostile file took over may send anything, and this process must only ever see a broken answer.

#include "remote/bench_codec.h"
#include "remote/facts.h"
#include "remote/wire.h"

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace asc::wire;
    if (size == 0)
        return 0;
    // The first byte picks the kind of answer to decode, the rest is the frame.
    const QByteArray frame(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    Received answer(frame);
    if (data[0] % 11 == 10) {
        // The stream itself, cut into frames as the window's reader does (lengths that lie,
        // frames cut short, the end in the middle of one).
        int pipe[2];
        if (::pipe(pipe) != 0)
            return 0;
        const size_t fits = std::min<size_t>(size_t(frame.size()), 60000); // below the pipe's buffer
        if (::write(pipe[1], frame.constData(), fits) < 0) {
        }
        ::close(pipe[1]);
        FrameReader reader(pipe[0]);
        while (auto next = reader.next())
            Received(*next).ok();
        ::close(pipe[0]);
        return 0;
    }
    switch (data[0] % 11) {
    case 0: {
        InspectedFacts facts;
        answer >> facts;
        break;
    }
    case 1: {
        ContainerFacts facts;
        answer >> facts;
        break;
    }
    case 2: {
        std::vector<asc::Entry> entries;
        answer >> entries;
        break;
    }
    case 3: {
        std::vector<asc::Error> problems;
        answer >> problems;
        break;
    }
    case 4: {
        TraceFacts trace;
        answer >> trace;
        break;
    }
    case 5: {
        asc::Entry entry;
        answer >> entry;
        break;
    }
    case 6: {
        bool failed = false;
        asc::Error error;
        answer >> failed >> error;
        break;
    }
    case 7: {
        asc::BenchPoint point;
        answer >> point;
        break;
    }
    case 8: {
        asc::BenchResult result;
        answer >> result;
        break;
    }
    default: {
        QString image, backing;
        answer >> image >> backing;
        break;
    }
    }
    (void)answer.ok();
    (void)answer.bytesView(); // content pieces are read in place
    return 0;
}
