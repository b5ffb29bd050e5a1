// SPDX-License-Identifier: MIT
#include "line_scanner.h"

#include <algorithm>
#include <cstring>

namespace asc {

namespace {
// A "line" this long without a newline is scanned as it is (a binary file, one huge line):
// memory stays bounded.
constexpr qsizetype kLongestLine = 16 << 20;
} // namespace

LineScanner::LineScanner(const LinePattern &pattern, bool allText, OnLine onLine)
    : pattern_(pattern),
      allText_(allText),
      onLine_(std::move(onLine))
{
}

bool LineScanner::feed(QByteArrayView chunk)
{
    if (stopped_)
        return false;
    if (!allText_ && !binary_ && std::memchr(chunk.data(), '\0', size_t(chunk.size())))
        binary_ = true;
    pending_.append(chunk);
    return scan(false);
}

void LineScanner::finish()
{
    if (!stopped_)
        scan(true);
    pending_.clear();
}

bool LineScanner::scan(bool last)
{
    // Up to the last newline (everything at the end of the file, or when a line grows too long).
    qsizetype upTo = pending_.lastIndexOf('\n') + 1;
    if (last || (upTo == 0 && pending_.size() >= kLongestLine))
        upTo = pending_.size();
    if (upTo == 0)
        return true;
    const char *data = pending_.constData();
    size_t from = 0;
    size_t counted = 0; // newlines before `counted` are in lineNumber_
    uint64_t number = lineNumber_;
    while (from < size_t(upTo)) {
        auto line = pattern_.nextMatchingLine(data, size_t(upTo), from);
        if (!line)
            break;
        number += uint64_t(std::count(data + counted, data + line->start, '\n'));
        counted = line->start;
        ++matches_;
        if (!onLine_(number, QByteArrayView(data + line->start, qsizetype(line->end - line->start)))) {
            stopped_ = true;
            return false;
        }
        from = line->end + 1;
    }
    lineNumber_ = number + uint64_t(std::count(data + counted, data + upTo, '\n'));
    pending_.remove(0, upTo);
    return true;
}

} // namespace asc
