// SPDX-License-Identifier: MIT
#include "selected_walk.h"

namespace asc {

Result<void> walkSelected(Container &container, const QByteArray &selection, const Container::ContentSink &sink)
{
    if (!selection.isEmpty() && (container.listsFromIndex() || !container.impliesDirectories())) {
        auto entry = container.find(selection);
        if (entry && entry->type == EntryType::File && entry->problem.isEmpty()) {
            auto content = container.open(*entry);
            if (!content)
                return std::move(content).error();
            const SourcePtr source = std::move(content).value();
            uint64_t at = 0;
            auto more = sink(*entry, [&](std::span<char> buf) -> Result<size_t> {
                auto got = source->readAt(at, buf);
                if (got)
                    at += *got;
                return got;
            });
            if (!more)
                return std::move(more).error();
            return {};
        }
    }
    return container.walkSelection(selection, sink);
}

} // namespace asc
