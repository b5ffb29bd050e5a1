// SPDX-License-Identifier: MIT
// What the GUI reads from a worker process (open/worker/wire) on arbitrary bytes: a worker a
// hostile file took over may send anything, and this process must only ever see a broken answer.

#include "open/worker/wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace asc::wire;
    if (size == 0)
        return 0;
    // The first byte picks the kind of answer to decode, the rest is the frame.
    const QByteArray frame(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    Received answer(frame);
    switch (data[0] % 8) {
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
