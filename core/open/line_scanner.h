// SPDX-License-Identifier: MIT
#pragma once
// One file's content, searched as it streams in: whole lines are matched in each chunk (the
// partial last line waits for the next), lines are numbered, and a file is binary (grep's rule:
// a NUL byte in what was read) unless told to treat everything as text.

#include "line_pattern.h"

#include <functional>

namespace asc {

class LineScanner {
public:
    // A matching line: its number (from 1) and text (without the newline). Return false to stop
    // reading this file (-l, a binary file's one line).
    using OnLine = std::function<bool(uint64_t number, QByteArrayView text)>;

    LineScanner(const LinePattern &pattern, bool allText, OnLine onLine);
    // Feeds the next bytes; false once the file needs no more (stopped).
    bool feed(QByteArrayView chunk);
    // The end of the file: its last line, if it had no newline.
    void finish();
    bool binary() const { return binary_; }
    uint64_t matches() const { return matches_; }

private:
    bool scan(bool last);

    const LinePattern &pattern_;
    bool allText_;
    OnLine onLine_;
    QByteArray pending_; // bytes of lines not scanned yet
    uint64_t lineNumber_ = 1; // of pending_'s first line
    uint64_t matches_ = 0;
    bool binary_ = false;
    bool stopped_ = false;
};

} // namespace asc
