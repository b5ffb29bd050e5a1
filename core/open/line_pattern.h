// SPDX-License-Identifier: MIT
#pragma once
// A grep pattern over bytes, by PCRE2 (JIT-compiled): basic (grep's default), extended (-E),
// fixed strings (-F) or Perl (-P) syntax, optionally caseless. Lines are found around matches in
// a buffer of whole lines (as ripgrep does), not matched one by one. UTF-8 text matches
// caselessly beyond ASCII; invalid UTF-8 (binary content, legacy charsets) is matched as bytes.

#include "io/result.h"

#include <QByteArray>
#include <memory>

namespace asc {

enum class PatternSyntax { Basic,
                           Extended,
                           Fixed,
                           Perl };

class LinePattern {
public:
    static Result<LinePattern> compile(const QByteArray &pattern, PatternSyntax syntax, bool ignoreCase);
    LinePattern(LinePattern &&) noexcept;
    LinePattern &operator=(LinePattern &&) noexcept;
    ~LinePattern();

    // The first line of data[from, size) that matches: its start and end (without the newline),
    // or nullopt. `data` holds whole lines (the last one may lack its newline).
    struct Line {
        size_t start;
        size_t end;
    };
    std::optional<Line> nextMatchingLine(const char *data, size_t size, size_t from) const;

private:
    struct Compiled;
    explicit LinePattern(std::unique_ptr<Compiled> compiled);
    std::unique_ptr<Compiled> compiled_;
};

// grep's basic syntax in PCRE2's: \( \) \{ \} \| \+ \? are the operators, ( ) { } | + ? literals.
QByteArray basicToPcre(const QByteArray &pattern);

} // namespace asc
