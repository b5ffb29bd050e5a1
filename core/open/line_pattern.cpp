// SPDX-License-Identifier: MIT
#include "line_pattern.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <cstring>
#include <mutex>
#include <pcre2.h>

namespace asc {

struct LinePattern::Compiled {
    pcre2_code *code = nullptr;
    ~Compiled() { pcre2_code_free(code); }
};

namespace {

// Match data per thread: a pattern is shared by the threads that search with it.
pcre2_match_data *matchData(const pcre2_code *code)
{
    struct Data {
        pcre2_match_data *data = nullptr;
        const pcre2_code *code = nullptr;
        ~Data() { pcre2_match_data_free(data); }
    };
    thread_local Data t;
    if (t.code != code) {
        pcre2_match_data_free(t.data);
        t.data = pcre2_match_data_create_from_pattern(code, nullptr);
        t.code = code;
    }
    return t.data;
}

} // namespace

QByteArray basicToPcre(const QByteArray &pattern)
{
    QByteArray out;
    out.reserve(pattern.size() + 8);
    bool inBracket = false;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (inBracket) {
            out += c;
            if (c == ']' && !(out.endsWith("[]") || out.endsWith("[^]")))
                inBracket = false;
            continue;
        }
        if (c == '[') {
            inBracket = true;
            out += c;
        } else if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            if (std::strchr("(){}|+?", next))
                out += next; // an operator in basic syntax
            else
                out += '\\', out += next;
        } else if (std::strchr("(){}|+?", c)) {
            out += '\\', out += c; // a literal in basic syntax
        } else {
            out += c;
        }
    }
    return out;
}

LinePattern::LinePattern(std::unique_ptr<Compiled> compiled)
    : compiled_(std::move(compiled))
{
}
LinePattern::LinePattern(LinePattern &&) noexcept = default;
LinePattern &LinePattern::operator=(LinePattern &&) noexcept = default;
LinePattern::~LinePattern() = default;

Result<LinePattern> LinePattern::compile(const QByteArray &pattern, PatternSyntax syntax, bool ignoreCase)
{
    const QByteArray source = syntax == PatternSyntax::Basic ? basicToPcre(pattern) : pattern;
    uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    // A literal takes no MULTILINE (nothing in it is an anchor anyway).
    options |= syntax == PatternSyntax::Fixed ? PCRE2_LITERAL : PCRE2_MULTILINE;
    if (ignoreCase)
        options |= PCRE2_CASELESS;
    int code = 0;
    PCRE2_SIZE offset = 0;
    auto compiled = std::make_unique<Compiled>();
    compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.constData()), PCRE2_SIZE(source.size()), options, &code, &offset, nullptr);
    if (!compiled->code) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(code, message, sizeof message);
        return Error::make(ErrorKind::Usage, QString::fromUtf8(pattern),
                           QStringLiteral("bad pattern at character %1: %2").arg(offset).arg(QString::fromUtf8(reinterpret_cast<const char *>(message))));
    }
    (void)pcre2_jit_compile(compiled->code, PCRE2_JIT_COMPLETE); // interpreted if the JIT is unavailable
    return LinePattern(std::move(compiled));
}

std::optional<LinePattern::Line> LinePattern::nextMatchingLine(const char *data, size_t size, size_t from) const
{
    pcre2_match_data *match = matchData(compiled_->code);
    const auto *subject = reinterpret_cast<PCRE2_SPTR>(data);
    while (from <= size) {
        const int rc = pcre2_match(compiled_->code, subject, size, from, 0, match, nullptr);
        if (rc < 0)
            return std::nullopt; // no match (or a limit: nothing more is said to match)
        const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(match);
        const size_t at = ovector[0];
        const size_t end = ovector[1];
        const void *before = at > 0 ? memrchr(data, '\n', at) : nullptr;
        const size_t lineStart = before ? size_t(static_cast<const char *>(before) - data) + 1 : 0;
        const void *after = std::memchr(data + at, '\n', size - at);
        const size_t lineEnd = after ? size_t(static_cast<const char *>(after) - data) : size;
        if (end <= lineEnd || (end == lineEnd + 1 && at < lineEnd))
            return Line{lineStart, lineEnd};
        // The match ran past its line's end (\s matched the newline): the line alone decides.
        const int alone = pcre2_match(compiled_->code, subject, lineEnd, lineStart, 0, match, nullptr);
        if (alone >= 0)
            return Line{lineStart, lineEnd};
        if (lineEnd >= size)
            return std::nullopt;
        from = lineEnd + 1;
    }
    return std::nullopt;
}

} // namespace asc
